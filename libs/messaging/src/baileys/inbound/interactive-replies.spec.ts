import type { WAMessage } from '../baileys-library';
import { eventsIn, inboundHarness, type Harness } from '../testing/inbound';
import { ANA, SELF, senderOf } from '../testing/people';

const BASE = { time: '2025-11-22T08:26:40.000Z', chatId: ANA.pn, sender: senderOf(ANA), isGroup: false, isStatus: false };

function tap(id: string, message: WAMessage['message']): WAMessage {
  return {
    key: { remoteJid: ANA.lid, remoteJidAlt: ANA.pn, fromMe: false, id, addressingMode: 'lid' },
    messageTimestamp: 1763800000,
    pushName: 'Ana',
    message,
  };
}

/** The gateway's own interactive send as Baileys echoes it (`append`), wrapped as the sender relays it. */
function sentInteractive(id: string, buttons: { name: string; buttonParamsJson: string }[]): WAMessage {
  return {
    key: { remoteJid: ANA.pn, fromMe: true, id },
    messageTimestamp: 1763799900,
    status: 1,
    message: {
      viewOnceMessage: {
        message: {
          messageContextInfo: { deviceListMetadataVersion: 2 },
          interactiveMessage: { body: { text: 'What would you like?' }, nativeFlowMessage: { buttons, messageVersion: 1 } },
        },
      },
    },
  };
}

async function replies(harness: Harness, ...messages: WAMessage[]) {
  const calls = await harness.deliver({ 'messages.upsert': { type: 'notify', messages } });
  return eventsIn(calls).map((event) => event.data);
}

describe('interactive replies in messages.upsert', () => {
  let harness: Harness;
  beforeEach(() => {
    harness = inboundHarness();
  });

  it('reads buttonsResponseMessage', async () => {
    const data = await replies(
      harness,
      tap('3A5C000000000BUTTON1', {
        buttonsResponseMessage: {
          selectedButtonId: 'yes',
          selectedDisplayText: 'Yes',
          type: 1,
          contextInfo: { stanzaId: '3EB0000000000BUTTONS', participant: SELF.pn, quotedMessage: { conversation: 'Continue?' } },
        },
      }),
    );

    expect(data).toEqual([
      {
        id: '3A5C000000000BUTTON1',
        ...BASE,
        type: 'button_reply',
        text: 'Yes',
        buttonReply: { id: 'yes', text: 'Yes' },
        replyTo: { id: '3EB0000000000BUTTONS' },
      },
    ]);
  });

  it('reads templateButtonReplyMessage', async () => {
    const data = await replies(
      harness,
      tap('3A5C00000000TEMPLATE', {
        templateButtonReplyMessage: {
          selectedId: 'human-agent',
          selectedDisplayText: 'Talk to agent',
          selectedIndex: 1,
          contextInfo: { stanzaId: '3EB000000000TEMPLATE', participant: SELF.pn },
        },
      }),
    );

    expect(data).toEqual([
      {
        id: '3A5C00000000TEMPLATE',
        ...BASE,
        type: 'button_reply',
        text: 'Talk to agent',
        buttonReply: { id: 'human-agent', text: 'Talk to agent' },
        replyTo: { id: '3EB000000000TEMPLATE' },
      },
    ]);
  });

  it('reads listResponseMessage', async () => {
    const data = await replies(
      harness,
      tap('3A5C0000000000LIST01', {
        listResponseMessage: {
          title: 'Large pizza',
          listType: 1,
          singleSelectReply: { selectedRowId: 'pizza-l' },
          description: '40 cm',
          contextInfo: { stanzaId: '3EB0000000000LISTMSG', participant: SELF.pn },
        },
      }),
    );

    expect(data).toEqual([
      {
        id: '3A5C0000000000LIST01',
        ...BASE,
        type: 'list_reply',
        text: 'Large pizza',
        listReply: { id: 'pizza-l', title: 'Large pizza', description: '40 cm' },
        replyTo: { id: '3EB0000000000LISTMSG' },
      },
    ]);
  });

  it('reads interactiveResponseMessage answering buttons: paramsJson id, body text as label', async () => {
    harness.sent.add('3EB0000000000QUICK01');
    const data = await replies(
      harness,
      sentInteractive('3EB0000000000QUICK01', [
        { name: 'quick_reply', buttonParamsJson: JSON.stringify({ display_text: 'Confirm', id: 'confirm' }) },
        { name: 'cta_url', buttonParamsJson: JSON.stringify({ display_text: 'Site', url: 'https://example.org' }) },
      ]),
      tap('3A5C000000000NATIVE1', {
        interactiveResponseMessage: {
          body: { text: 'Confirm', format: 1 },
          nativeFlowResponseMessage: { name: 'quick_reply', paramsJson: '{"display_text":"Confirm","id":"confirm"}', version: 1 },
          contextInfo: { stanzaId: '3EB0000000000QUICK01', participant: SELF.pn },
        },
      }),
    );

    expect(data).toEqual([
      {
        id: '3A5C000000000NATIVE1',
        ...BASE,
        type: 'button_reply',
        text: 'Confirm',
        buttonReply: { id: 'confirm', text: 'Confirm' },
        replyTo: { id: '3EB0000000000QUICK01' },
      },
    ]);
  });

  it('reads interactiveResponseMessage answering a list as a list reply, the list known from the stored send', async () => {
    harness.sent.add('3EB00000000000LIST02');
    await harness.deliver({
      'messages.upsert': {
        type: 'append',
        messages: [
          sentInteractive('3EB00000000000LIST02', [
            {
              name: 'single_select',
              buttonParamsJson: JSON.stringify({
                title: 'Menu',
                sections: [{ title: 'Sizes', rows: [{ id: 'pizza-m', title: 'Medium pizza', description: '30 cm' }] }],
              }),
            },
          ]),
        ],
      },
    });
    const data = await replies(
      harness,
      tap('3A5C000000000NATIVE2', {
        interactiveResponseMessage: {
          body: { text: 'Medium pizza', format: 1 },
          nativeFlowResponseMessage: { name: 'menu_options', paramsJson: '{"id":"pizza-m","description":"30 cm"}', version: 3 },
          contextInfo: { stanzaId: '3EB00000000000LIST02', participant: SELF.pn },
        },
      }),
    );

    expect(data).toEqual([
      {
        id: '3A5C000000000NATIVE2',
        ...BASE,
        type: 'list_reply',
        text: 'Medium pizza',
        listReply: { id: 'pizza-m', title: 'Medium pizza', description: '30 cm' },
        replyTo: { id: '3EB00000000000LIST02' },
      },
    ]);
  });

  it('takes a single_select reply to an unknown message as a list reply', async () => {
    const data = await replies(
      harness,
      tap('3A5C000000000NATIVE3', {
        interactiveResponseMessage: {
          body: { text: 'Small pizza' },
          nativeFlowResponseMessage: { name: 'single_select', paramsJson: '{"id":"pizza-s"}', version: 3 },
          contextInfo: { stanzaId: '3EB0000000000UNKNOWN' },
        },
      }),
    );

    expect(data).toEqual([
      {
        id: '3A5C000000000NATIVE3',
        ...BASE,
        type: 'list_reply',
        text: 'Small pizza',
        listReply: { id: 'pizza-s', title: 'Small pizza' },
        replyTo: { id: '3EB0000000000UNKNOWN' },
      },
    ]);
  });

  it.each([
    ['malformed JSON', '{"id": "confirm"'],
    ['no id', '{"screen_0_TextInput_0":"hello"}'],
    ['a huge payload', `{"id":"x","pad":"${'\u0000'.repeat(70_000)}"}`],
  ])('does not report a native-flow response with %s, and keeps it', async (_case, paramsJson) => {
    const data = await replies(
      harness,
      tap('3A5C000000000NATIVE4', {
        interactiveResponseMessage: {
          body: { text: 'Sent' },
          nativeFlowResponseMessage: { name: 'galaxy_message', paramsJson, version: 3 },
          contextInfo: { stanzaId: '3EB0000000000UNKNOWN' },
        },
      }),
    );

    expect(data).toEqual([]);
    expect(harness.store.ids()).toEqual(['3A5C000000000NATIVE4']);
  });
});
