import type { ComponentChildren } from 'preact';
import { get, query, type Reply } from './api.ts';
import { navigate } from './router.ts';
import { ErrorNote, type Loaded, Pager, useLoad } from './ui.tsx';

const PAGE_SIZE = 20;

/**
 * A list filter: a choice of `options` (and "Any"), or free text without them; `name` is the API's query
 * parameter. `labels` says an option in words; `initial` is the value while the page's URL names none (the
 * incidents list shows the open ones), and "Any" is then kept in the URL as `any`, which the API is not sent.
 */
export interface Filter {
  name: string;
  label: string;
  options?: readonly string[];
  labels?: Readonly<Record<string, string>>;
  initial?: string;
}

const ANY = 'any';

export interface PagedList<T> {
  items: T[];
  loaded: Loaded<Reply<T[]>>;
  filters: Record<string, string>;
  page: number;
  totalPages: number;
  /** Moves to other filter values or another page; a new filter starts at page 1. */
  go: (changes: Record<string, string | number>) => void;
}

/**
 * One page of an API list, its filters and page kept in the page's URL (`pagePath?status=…&page=2`), so a
 * reload, back and a shared link show the same page. The filters go to the API as they are named.
 */
export const usePagedList = <T,>(
  apiPath: string,
  pagePath: string,
  params: URLSearchParams,
  filters: readonly Filter[],
): PagedList<T> => {
  const values = Object.fromEntries(filters.map(({ name, initial }) => [name, params.get(name) ?? initial ?? '']));
  const sent = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ANY));
  const page = Number(params.get('page') ?? '1') || 1;
  const loaded = useLoad(
    () => get<T[]>(`${apiPath}${query({ ...sent, page, limit: PAGE_SIZE })}`),
    `${JSON.stringify(values)}|${page}`,
  );
  const go = (changes: Record<string, string | number>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (String(value).trim() === '') next.delete(name);
      else next.set(name, String(value).trim());
    }
    if (!('page' in changes)) next.delete('page');
    const text = next.toString();
    navigate(`${pagePath}${text ? `?${text}` : ''}`);
  };
  // Lists place their total in `meta` or beside `data` (the spec, per endpoint).
  const total = loaded.value?.meta?.total ?? loaded.value?.total ?? 0;
  return {
    items: loaded.value?.data ?? [],
    loaded,
    filters: values,
    page,
    totalPages: Math.ceil(total / PAGE_SIZE),
    go,
  };
};

const FilterField = ({
  filter,
  value,
  onChange,
}: {
  filter: Filter;
  value: string;
  onChange: (to: string) => void;
}) => (
  <label htmlFor={`filter-${filter.name}`}>
    {filter.label}
    {filter.options ? (
      <select
        id={`filter-${filter.name}`}
        name={filter.name}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        <option value={filter.initial ? ANY : ''}>Any</option>
        {filter.options.map((option) => (
          <option key={option} value={option}>
            {filter.labels?.[option] ?? option}
          </option>
        ))}
      </select>
    ) : (
      <input
        id={`filter-${filter.name}`}
        name={filter.name}
        type="search"
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    )}
  </label>
);

/**
 * The filters above a list, each applied when chosen (a text field when it is left or submitted), then the
 * rows `children` renders, a note when there are none, and the pager.
 */
export const PagedListView = <T,>({
  list,
  filters,
  empty,
  children,
}: {
  list: PagedList<T>;
  filters: readonly Filter[];
  empty: string;
  children: (items: T[]) => ComponentChildren;
}) => (
  <>
    <form class="filters" onSubmit={(event) => event.preventDefault()}>
      {filters.map((filter) => (
        <FilterField
          key={filter.name}
          filter={filter}
          value={list.filters[filter.name] ?? ''}
          onChange={(value) => list.go({ [filter.name]: value })}
        />
      ))}
    </form>
    <ErrorNote error={list.loaded.error} />
    {list.loaded.loading && !list.loaded.value && <p>Loading…</p>}
    <ul class="rows">{children(list.items)}</ul>
    {list.loaded.value && list.items.length === 0 && <p>{empty}</p>}
    <Pager page={list.page} totalPages={list.totalPages} onPage={(page) => list.go({ page })} />
  </>
);
