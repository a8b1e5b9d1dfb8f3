import { useId } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';
import type { SecondCriterion } from '../stores/customer-store.ts';
import { ChoiceRow } from './ChoiceRow.tsx';
import { criterionLabels } from './criterion-labels.ts';

/** Which detail the customer stated (a choice of big buttons) and its value. */
export function CriterionField({
  legend,
  options,
  criterion,
  value,
  onCriterion,
  onValue,
}: {
  readonly legend: string;
  readonly options: readonly SecondCriterion[];
  readonly criterion: SecondCriterion;
  readonly value: string;
  readonly onCriterion: (criterion: SecondCriterion) => void;
  readonly onValue: (value: string) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  return (
    <fieldset className="criterion">
      <legend className="field-label">{legend}</legend>
      <ChoiceRow
        label={t('customers.criterionKind')}
        options={options}
        value={criterion}
        onChoose={onCriterion}
        labelOf={(option) => t(criterionLabels[option])}
      />
      <label htmlFor={id} className="field-label">
        {t(criterionLabels[criterion])}
      </label>
      <input
        id={id}
        className="input"
        autoComplete="off"
        required
        value={value}
        inputMode={criterion === 'phone' || criterion === 'postalCode' ? 'tel' : 'text'}
        onChange={(event) => onValue(event.target.value)}
      />
    </fieldset>
  );
}
