/**
 * A back-office list's labelled filter select (the GET form's field: it works without
 * JavaScript too). `allLabel` adds a first, empty choice ("All statuses").
 */
import type { ChangeEvent } from 'react';

export interface ListSelectProps {
  id: string;
  label: string;
  name: string;
  value: string | number;
  options: readonly { value: string | number; label: string | number }[];
  allLabel?: string;
  className: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
}

export default function ListSelect({ id, label, name, value, options, allLabel, className, onChange }: ListSelectProps) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} value={value} onChange={onChange} className={className}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export { SORT_DIRECTIONS, sizeOptions } from '../../lib/list-choices';
