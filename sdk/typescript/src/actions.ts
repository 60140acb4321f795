// A legal action made into the body that does it, by the document's one rule: a legal
// action without `choices` is already a body; one with `choices` is a template, sent with
// `cards`, `count` of its `choices`, in place of those two, every other field kept (Hearts'
// funky pass keeps `to`).

export interface LegalActionLike {
  type: string;
  choices?: readonly string[];
  count?: number;
}

export function isTemplate(legal: LegalActionLike): boolean {
  return legal.choices !== undefined;
}

/** The action body for `legal`; for a template, `pick` chooses `count` of its `choices`
 * (the first `count` without it). */
export function bodyOf<L extends LegalActionLike>(
  legal: L,
  pick?: (choices: readonly string[], count: number) => string[],
): Omit<L, "choices" | "count"> & { cards?: string[] } {
  const { choices, count, ...rest } = legal;
  if (choices === undefined) return rest;
  const n = count ?? 0;
  return { ...rest, cards: pick ? pick(choices, n) : choices.slice(0, n) };
}
