import { expect, type Locator, type Page } from '@playwright/test';

export interface ExecutedResponse {
  /** The status code Swagger UI shows in the response panel. */
  status: number;
  /** The response body as Swagger UI shows it (parsed when it is JSON). */
  body: unknown;
}

export interface TryItOutInput {
  /** The JSON request body to type into the editor. */
  body?: unknown;
  /** Path, query and header parameters by name. */
  parameters?: Record<string, string>;
}

/** Drives the Swagger UI the API serves at /docs, the way a person would: Authorize, Try it out, Execute. */
export class SwaggerUi {
  constructor(readonly page: Page) {}

  async open(apiUrl: string): Promise<void> {
    await this.page.goto(`${apiUrl}/docs`);
    await expect(this.page.locator('.swagger-ui .info .title')).toBeVisible();
    await expect(this.page.locator('.opblock').first()).toBeVisible();
  }

  /** Fills the Authorize dialog: one value per security scheme name (e.g. `X-Api-Key`, `X-Instance-Id`). */
  async authorize(values: Record<string, string>): Promise<void> {
    await this.page.locator('.auth-wrapper .authorize').click();
    const dialog = this.page.locator('.dialog-ux .modal-ux');
    await expect(dialog).toBeVisible();
    // One form per security scheme, each with its own Authorize button.
    for (const [scheme, value] of Object.entries(values)) {
      const form = dialog.locator('form').filter({ has: this.page.locator('h4', { hasText: scheme }) });
      await form.locator('input').fill(value);
      await form.getByRole('button', { name: 'Apply credentials' }).click();
      await expect(form.getByRole('button', { name: 'Remove authorization' })).toBeVisible();
    }
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();
  }

  /** The operation block for `method path`, e.g. `post`, `/messages/text`. */
  operation(method: string, path: string): Locator {
    return this.page
      .locator(`.opblock.opblock-${method.toLowerCase()}`)
      .filter({ has: this.page.locator(`.opblock-summary-path[data-path="${path}"]`) });
  }

  /** Expands an operation, presses Try it out, fills what is given, presses Execute and reads the response panel. */
  async tryItOut(method: string, path: string, input: TryItOutInput = {}): Promise<ExecutedResponse> {
    const operation = this.operation(method, path);
    await expect(operation).toHaveCount(1);
    await operation.scrollIntoViewIfNeeded();
    if (!(await operation.locator('.opblock-body').isVisible())) {
      await operation.locator('.opblock-summary').first().click();
    }
    await operation.getByRole('button', { name: 'Try it out' }).click();
    for (const [name, value] of Object.entries(input.parameters ?? {})) {
      await operation.locator(`tr[data-param-name="${name}"] input`).fill(value);
    }
    if (input.body !== undefined) {
      await operation.locator('textarea.body-param__text').fill(JSON.stringify(input.body, null, 2));
    }
    await operation.getByRole('button', { name: 'Execute' }).click();
    const row = operation.locator('.live-responses-table .response').first();
    // Swagger UI either sends the request or lists what it thinks is missing and sends nothing.
    const refused = operation.locator('.validation-errors');
    await expect(row.locator('.response-col_status').or(refused).first()).toBeVisible();
    if (await refused.isVisible()) {
      throw new Error(`Swagger UI did not send ${method.toUpperCase()} ${path}: ${(await refused.innerText()).trim()}`);
    }
    await expect(row.locator('.response-col_status')).toHaveText(/\d{3}/);
    const status = Number((await row.locator('.response-col_status').innerText()).trim().slice(0, 3));
    const text = (
      await row
        .locator('.response-col_description pre')
        .first()
        .innerText()
        .catch(() => '')
    ).trim();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status, body };
  }
}
