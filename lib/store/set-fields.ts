export interface SetExpression {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/** The clauses, `#f<i>` names and `:v<i>` values that assign each field, as `assign(name, value)` writes it. */
export interface FieldAssignments {
  clauses: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * One clause per field whose value is defined, with every name aliased so reserved words (`status`, `name`,
 * `type`...) need no thought: `#f0 = :v0` by default, or another form such as `if_not_exists`.
 */
export const fieldAssignments = (
  fields: Record<string, unknown>,
  assign: (name: string, value: string) => string = (name, value) => `${name} = ${value}`,
): FieldAssignments => {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  return {
    clauses: entries.map((_entry, index) => assign(`#f${index}`, `:v${index}`)),
    names: Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])),
    values: Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])),
  };
};

/** `SET #f0 = :v0, ...` for the given fields. Fields whose value is undefined are left as they are. */
export const setFields = (fields: Record<string, unknown>): SetExpression => {
  const { clauses, names, values } = fieldAssignments(fields);
  if (clauses.length === 0) throw new Error('setFields needs at least one field');
  return {
    UpdateExpression: `SET ${clauses.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};
