/**
 * IAM's identity-policy evaluation, for the statements our stack writes: an explicit Deny wins, then any
 * Allow, else the implicit deny. Enough of the language to judge our own policies (Action/NotAction,
 * Resource/NotResource, `*` and `?` wildcards, the condition operators below); anything else throws, so
 * a statement the evaluator cannot judge is never silently allowed.
 */
export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[] | boolean>>;
}

/** One authorization AWS makes for an API call: the action, the resource and the request's context keys. */
export interface IamRequest {
  action: string;
  resource: string;
  /** Condition keys; a multivalued key (such as `dynamodb:LeadingKeys`) is an array. */
  context?: Record<string, string | string[]>;
}

export type Decision = 'allowed' | 'explicitDeny' | 'implicitDeny';

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

const escapeRegExp = (text: string): string => text.replace(/[.+^${}()|[\]\\]/g, '\\$&');

const wildcardCache = new Map<string, RegExp>();

/** IAM's glob: `*` any run of characters, `?` exactly one. */
const wildcardMatch = (pattern: string, value: string, ignoreCase = false): boolean => {
  const cacheKey = `${ignoreCase ? 'i' : 's'}:${pattern}`;
  let regExp = wildcardCache.get(cacheKey);
  if (!regExp) {
    const body = [...pattern].map((char) => (char === '*' ? '.*' : char === '?' ? '.' : escapeRegExp(char))).join('');
    regExp = new RegExp(`^${body}$`, ignoreCase ? 'is' : 's');
    wildcardCache.set(cacheKey, regExp);
  }
  return regExp.test(value);
};

/** Actions compare without case (`dynamodb:getitem` is `dynamodb:GetItem`); resources with it. */
const matchesAction = (statement: PolicyStatement, action: string): boolean => {
  if (statement.NotAction !== undefined) return !list(statement.NotAction).some((p) => wildcardMatch(p, action, true));
  return list(statement.Action).some((pattern) => wildcardMatch(pattern, action, true));
};

const matchesResource = (statement: PolicyStatement, resource: string): boolean => {
  if (statement.NotResource !== undefined) return !list(statement.NotResource).some((p) => wildcardMatch(p, resource));
  return list(statement.Resource).some((pattern) => wildcardMatch(pattern, resource));
};

type ValueTest = (expected: string, actual: string) => boolean;

const POSITIVE: Record<string, ValueTest> = {
  StringEquals: (expected, actual) => expected === actual,
  StringEqualsIgnoreCase: (expected, actual) => expected.toLowerCase() === actual.toLowerCase(),
  StringLike: (expected, actual) => wildcardMatch(expected, actual),
  ArnEquals: (expected, actual) => expected === actual,
  ArnLike: (expected, actual) => wildcardMatch(expected, actual),
  Bool: (expected, actual) => expected.toLowerCase() === actual.toLowerCase(),
};
const NEGATED: Record<string, string> = {
  StringNotEquals: 'StringEquals',
  StringNotEqualsIgnoreCase: 'StringEqualsIgnoreCase',
  StringNotLike: 'StringLike',
  ArnNotEquals: 'ArnEquals',
  ArnNotLike: 'ArnLike',
};

/** One operator on one key: `[ForAllValues:|ForAnyValue:]<operator>[IfExists]`, as IAM defines them. */
const conditionHolds = (operator: string, key: string, expected: string[], request: IamRequest): boolean => {
  const [qualifier, bare] = operator.includes(':') ? operator.split(':', 2) : [undefined, operator];
  const ifExists = bare?.endsWith('IfExists') ?? false;
  const name = ifExists ? bare?.slice(0, -'IfExists'.length) : bare;
  const raw = request.context?.[key];
  const actual = raw === undefined ? undefined : list(raw);
  if (name === 'Null') return expected.some((value) => (value === 'true') === (actual === undefined));
  const positiveName = name && (NEGATED[name] ?? name);
  const test = positiveName ? POSITIVE[positiveName] : undefined;
  if (!test) throw new Error(`the policy evaluator does not know the condition operator ${operator}`);
  const negated = name !== positiveName;
  const matches = (value: string): boolean => expected.some((candidate) => test(candidate, value)) !== negated;
  if (qualifier === 'ForAllValues') return (actual ?? []).every(matches);
  if (qualifier === 'ForAnyValue') return (actual ?? []).some(matches);
  if (qualifier !== undefined) throw new Error(`the policy evaluator does not know the set operator ${qualifier}`);
  if (actual === undefined) return ifExists || negated;
  return actual.some(matches);
};

const conditionsHold = (statement: PolicyStatement, request: IamRequest): boolean =>
  Object.entries(statement.Condition ?? {}).every(([operator, keys]) =>
    Object.entries(keys).every(([key, expected]) => conditionHolds(operator, key, list(expected).map(String), request)),
  );

const statementApplies = (statement: PolicyStatement, request: IamRequest): boolean =>
  matchesAction(statement, request.action) &&
  matchesResource(statement, request.resource) &&
  conditionsHold(statement, request);

export const evaluate = (statements: readonly PolicyStatement[], request: IamRequest): Decision => {
  const applying = statements.filter((statement) => statementApplies(statement, request));
  if (applying.some((statement) => statement.Effect === 'Deny')) return 'explicitDeny';
  return applying.some((statement) => statement.Effect === 'Allow') ? 'allowed' : 'implicitDeny';
};
