import type { Wallet } from "./balances.tsx";

/**
 * A select of the user's wallets, each shown as its number and currency, labelled beside it
 * (the statement's wallet, the test wallet to fund). `fieldClass` adds a class to the field for
 * the form's own layout.
 */
export function WalletPicker({
  id,
  label,
  wallets,
  value,
  onChange,
  fieldClass,
}: {
  id: string;
  label: string;
  wallets: readonly Wallet[];
  value: string;
  onChange(number: string): void;
  fieldClass?: string;
}) {
  return (
    <div class={fieldClass ? `field ${fieldClass}` : "field"}>
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {wallets.map((item) => (
          <option key={item.number} value={item.number}>
            {item.number} ({item.currency.code})
          </option>
        ))}
      </select>
    </div>
  );
}
