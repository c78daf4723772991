export interface SetExpression {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/**
 * `SET #f0 = :v0, ...` for the given fields, with every name aliased so reserved words (`status`,
 * `name`, `type`...) need no thought. Fields whose value is undefined are left as they are.
 */
export const setFields = (fields: Record<string, unknown>): SetExpression => {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (entries.length === 0) throw new Error('setFields needs at least one field');
  return {
    UpdateExpression: `SET ${entries.map((_entry, index) => `#f${index} = :v${index}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])),
  };
};
