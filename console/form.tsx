import { type ComponentChildren, createContext } from 'preact';
import { useContext, useRef } from 'preact/hooks';
import { ApiError } from './api.ts';

/**
 * The field messages of a refused request, the first of each field by field: the API reports each bad
 * field as `<field>: <message>` in `errors` (lib/contract/field-messages.ts). `rest` holds every other entry.
 */
const fieldMessages = (error: unknown): { byField: Map<string, string>; rest: string[] } => {
  const byField = new Map<string, string>();
  const rest: string[] = [];
  for (const entry of error instanceof ApiError ? error.errors : []) {
    const at = entry.indexOf(': ');
    const field = entry.slice(0, at);
    if (at > 0 && !byField.has(field)) byField.set(field, entry.slice(at + 2));
    else rest.push(entry);
  }
  return { byField, rest };
};

const FieldMessages = createContext<Map<string, string>>(new Map());

/**
 * A form whose request's error shows where it belongs: each field message under the field of that name,
 * the rest (the message, and messages of fields the form does not show) above the `actions`.
 */
export const ApiForm = ({
  error,
  onSubmit,
  actions,
  class: className = '',
  children,
}: {
  error: unknown;
  onSubmit: () => void;
  actions: ComponentChildren;
  class?: string;
  children: ComponentChildren;
}) => {
  const form = useRef<HTMLFormElement>(null);
  const { byField, rest } = fieldMessages(error);
  const shown = (field: string) => !!form.current?.elements.namedItem(field);
  const elsewhere = [
    ...[...byField].filter(([field]) => !shown(field)).map(([field, text]) => `${field}: ${text}`),
    ...rest,
  ];
  return (
    <form
      ref={form}
      class={`stack ${className}`.trim()}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <FieldMessages.Provider value={byField}>{children}</FieldMessages.Provider>
      {!!error && (
        <p class="error" role="alert">
          {[error instanceof Error ? error.message : String(error), ...elsewhere].join(': ')}
        </p>
      )}
      {actions}
    </form>
  );
};

export interface FieldProps {
  label: string;
  /** The API's name of the field, so its message from a refused request shows here. */
  name: string;
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  autocomplete?: string;
  required?: boolean;
  minLength?: number;
  inputMode?: 'numeric' | 'text';
  /** A text area of this many rows instead of a one-line input. */
  rows?: number;
}

/** A labelled input, marked invalid with the API's message for its field. */
export const Field = ({ label, name, value, onValue, rows, type = 'text', ...attributes }: FieldProps) => {
  const message = useContext(FieldMessages).get(name);
  const described = message ? { 'aria-invalid': true, 'aria-describedby': `${name}-message` } : {};
  const id = `field-${name}`;
  return (
    <label htmlFor={id}>
      {label}
      {rows ? (
        <textarea
          id={id}
          name={name}
          rows={rows}
          required={attributes.required}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
          {...described}
        />
      ) : (
        <input
          id={id}
          name={name}
          // Preact types `type` as one literal per ARIA role an input of it may take; this union is all plain.
          type={type as 'text'}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
          {...attributes}
          {...described}
        />
      )}
      {message && (
        <span class="field-error" id={`${name}-message`}>
          {message}
        </span>
      )}
    </label>
  );
};

type ValueProps = Pick<FieldProps, 'value' | 'onValue'>;

/** The account's e-mail address, as password managers know it. */
export const EmailField = (props: ValueProps) => (
  <Field label="E-mail" name="email" type="email" autocomplete="username" required {...props} />
);

/** A password being chosen: the API's minimum length, and a manager may offer one. */
export const NewPasswordField = (props: ValueProps & Pick<FieldProps, 'label' | 'name'>) => (
  <Field type="password" autocomplete="new-password" minLength={8} required {...props} />
);

/** The one-time code an e-mail carried (the API's `otp`), which phones offer to fill in. */
export const CodeField = (props: ValueProps) => (
  <Field label="Code from the e-mail" name="otp" inputMode="numeric" autocomplete="one-time-code" required {...props} />
);
