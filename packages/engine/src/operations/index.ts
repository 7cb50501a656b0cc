import { currencyListOperation } from "../currency/currency-list.operation.ts";
import { currencyShowOperation } from "../currency/currency-show.operation.ts";

/**
 * Every operation declared once for all three doors, in the order REST registers them (the
 * OpenAPI document lists paths in that order). A door mounts each one; add a declaration here.
 */
export const operations = [currencyListOperation, currencyShowOperation] as const;
