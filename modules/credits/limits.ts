/**
 * Credit self-purchase (spec 3 §5, §9): 1 to this many whole credits at a time. A file without the schema library, so
 * the autocompra page reads the limit without loading zod (issue 15); model.ts re-exports it.
 */
export const MAX_PURCHASE_CREDITS = 1000
