/** A node of the network's binary XML, as Baileys' `query` answers it. */
export interface Node {
  tag: string;
  attrs: Record<string, string>;
  content?: unknown;
}

export function childrenOf(node: Node | undefined, tag: string): Node[] {
  if (!node || !Array.isArray(node.content)) return [];
  return (node.content as unknown[]).filter(
    (child): child is Node => typeof child === 'object' && child !== null && (child as Node).tag === tag,
  );
}

export function childOf(node: Node | undefined, tag: string): Node | undefined {
  return childrenOf(node, tag)[0];
}

/** The text or bytes a node carries, as UTF-8. */
export function textOf(node: Node | undefined): string | undefined {
  const content = node?.content;
  if (typeof content === 'string') return content;
  if (content instanceof Uint8Array) return Buffer.from(content).toString('utf-8');
  return undefined;
}
