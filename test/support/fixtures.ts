import type { Http } from './http';
import { testEnv } from './environment';

export interface Customer {
  id: string;
  name: string;
  apiKey: string;
}

export interface CreatedInstance {
  id: string;
  apiKey: string;
  [field: string]: unknown;
}

export function adminHeaders(): Record<string, string> {
  return { 'X-Admin-Key': testEnv().ADMIN_API_KEY };
}

export async function createCustomer(http: Http, name = 'Acme'): Promise<Customer> {
  const response = await http.post('/admin/customers', { name }, adminHeaders());
  if (response.status !== 201) throw new Error(`customer creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Customer;
}

export async function createInstance(
  http: Http,
  customerKey: string,
  body: object = { name: 'main', sandbox: true },
): Promise<CreatedInstance> {
  const response = await http.post('/account/instances', body, { 'X-Api-Key': customerKey });
  if (response.status !== 201) throw new Error(`instance creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as CreatedInstance;
}
