/** One of a few options, as a row of big toggle buttons: the chosen one is pressed. */
export function ChoiceRow<T extends string>({
  label,
  options,
  value,
  onChoose,
  labelOf,
}: {
  /** What is being chosen, for assistive technology. */
  readonly label: string;
  readonly options: readonly T[];
  readonly value: T;
  readonly onChoose: (option: T) => void;
  readonly labelOf: (option: T) => string;
}) {
  return (
    <div className="choice-row" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option}
          type="button"
          className="button choice"
          aria-pressed={option === value}
          onClick={() => onChoose(option)}
        >
          {labelOf(option)}
        </button>
      ))}
    </div>
  );
}
