// A table's header row: one column head per name, and a last, unnamed-on-screen column for row actions.
/** A column head: its text, or its text with how the rows are sorted by it and a class. */
export type Column = string | { label: string; sort?: "ascending" | "descending"; class?: string };

interface TableHeadProps {
  columns: readonly Column[];
  /** Whether the rows end with a cell of buttons; its head is heard by screen readers only. */
  actions?: boolean;
}

export function TableHead({ columns, actions = false }: TableHeadProps) {
  return (
    <thead>
      <tr>
        {columns.map((c) =>
          typeof c === "string" ? (
            <th key={c} scope="col">
              {c}
            </th>
          ) : (
            <th key={c.label} scope="col" class={c.class} aria-sort={c.sort}>
              {c.label}
            </th>
          ),
        )}
        {actions && (
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
