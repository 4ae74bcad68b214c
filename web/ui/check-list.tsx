// A fieldset of checkboxes that picks some of a fixed list (an API key's scopes, a webhook's events).
import { FormError } from "./field";

interface CheckListProps<T extends string> {
  legend: string;
  options: readonly T[];
  chosen: readonly T[];
  onChosen: (chosen: T[]) => void;
  /** Why the choice was refused, under the boxes. */
  error?: string;
}

export function CheckList<T extends string>({ legend, options, chosen, onChosen, error }: CheckListProps<T>) {
  const toggle = (option: T) => onChosen(chosen.includes(option) ? chosen.filter((c) => c !== option) : [...chosen, option]);
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} class="check">
          <input type="checkbox" checked={chosen.includes(option)} onChange={() => toggle(option)} /> {option}
        </label>
      ))}
      <FormError message={error ?? null} />
    </fieldset>
  );
}
