/** Items as a tree: roots by position, each followed by its children (kits and groups). */
export function itemTree<Item extends { id: string; parentId: string | null }>(
  items: Item[],
): { item: Item; depth: number; children: number }[] {
  const byParent = new Map<string | null, Item[]>();
  const ids = new Set(items.map((i) => i.id));
  for (const item of items) {
    const parent = item.parentId && ids.has(item.parentId) ? item.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), item]);
  }
  const out: { item: Item; depth: number; children: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const item of byParent.get(parent) ?? []) {
      out.push({ item, depth, children: byParent.get(item.id)?.length ?? 0 });
      walk(item.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
