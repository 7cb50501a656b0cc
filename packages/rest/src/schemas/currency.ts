/**
 * Views carry exact decimal text; fields the specification types as numbers become JSON numbers
 * here, at the last moment, and nowhere else.
 */
export const toNumber = (text: string): number => Number(text);
