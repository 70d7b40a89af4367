import type { BinaryNode, proto } from '@whiskeysockets/baileys';
import { jidKind, type InteractiveButton, type ListPayload, type OutboundMessage } from '@app/contracts';

type NativeFlowButton = proto.Message.InteractiveMessage.NativeFlowMessage.INativeFlowButton;

/**
 * `privacy_mode_ts` of the `<biz>` node: now minus this many seconds. The value is what the implementations measured
 * against live servers send (whatsapp-rust `BIZ_PRIVACY_MODE_TS_OFFSET`, Baileys forks' `PRIVACY_TS_OFFSET`).
 */
const PRIVACY_MODE_TS_OFFSET = 77_980_457;

function button(name: string, params: Record<string, string>): NativeFlowButton {
  return { name, buttonParamsJson: JSON.stringify(params) };
}

/** Our button types as native-flow buttons: reply → quick_reply, url → cta_url, copy → cta_copy, call → cta_call. */
function nativeButton(spec: InteractiveButton): NativeFlowButton {
  const display_text = spec.text;
  switch (spec.type) {
    case 'reply':
      return button('quick_reply', { display_text, id: spec.id });
    case 'url':
      return button('cta_url', { display_text, url: spec.url });
    case 'copy':
      return button('cta_copy', { display_text, copy_code: spec.copyCode });
    case 'call':
      return button('cta_call', { display_text, phone_number: spec.phoneNumber });
  }
}

/** A list is one `single_select` button that opens the sections. */
function listButton(payload: ListPayload): NativeFlowButton {
  const sections = payload.sections.map((section) => {
    const rows = section.rows.map((row) => ({
      title: row.title,
      ...(row.description ? { description: row.description } : {}),
      id: row.id,
    }));
    return { ...(section.title ? { title: section.title } : {}), rows };
  });
  return { name: 'single_select', buttonParamsJson: JSON.stringify({ title: payload.buttonText, sections }) };
}

/** The native-flow `interactiveMessage` of a buttons or list send. */
export function interactiveMessage(message: OutboundMessage<'buttons' | 'list'>): proto.Message.IInteractiveMessage {
  const { header, footer, text } = message.payload;
  const buttons = message.kind === 'list' ? [listButton(message.payload)] : message.payload.buttons.map(nativeButton);
  return {
    ...(header ? { header: { title: header, hasMediaAttachment: false } } : {}),
    body: { text },
    ...(footer ? { footer: { text: footer } } : {}),
    nativeFlowMessage: { buttons, messageVersion: 1 },
  };
}

/**
 * The stanza children that make clients render a native-flow message: without `<biz>` the server accepts it and
 * nobody shows it. The nested `mixed` form is the one measured to deliver for every non-payment button (whatsmeow
 * PR #1235, whatsapp-rust PR #628).
 *
 * `<bot biz_bot="1"/>` ahead of `<biz>`: whatsapp-rust, measured against live servers, sends it with every `<biz>` to
 * a person, and some clients are reported to render one-to-one buttons only with it; but it is also what makes
 * WhatsApp show the AI badge on a message in a one-to-one chat (the Baileys forks that offer an "AI" flag send exactly
 * this node). The contract promises that badge only for `aiLabel: true`, so the node goes out only then, and only in
 * one-to-one chats. A client that does not render the buttons still gets the text copy (`INTERACTIVE_TEXT_FALLBACK`,
 * `after` by default); docs/live-test.md has the check that settles this per client.
 */
export function interactiveNodes(chatJid: string, now: Date, aiLabel: boolean): BinaryNode[] {
  const biz: BinaryNode = {
    tag: 'biz',
    attrs: {
      actual_actors: '2',
      host_storage: '2',
      privacy_mode_ts: String(Math.floor(now.getTime() / 1000) - PRIVACY_MODE_TS_OFFSET),
    },
    content: [
      {
        tag: 'interactive',
        attrs: { type: 'native_flow', v: '1' },
        content: [{ tag: 'native_flow', attrs: { v: '9', name: 'mixed' } }],
      },
      { tag: 'quality_control', attrs: { source_type: 'third_party' } },
    ],
  };
  return aiLabel && jidKind(chatJid) !== 'group' ? [{ tag: 'bot', attrs: { biz_bot: '1' } }, biz] : [biz];
}
