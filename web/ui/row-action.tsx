// A table row's last cell: one danger button (revoke, remove, leave), or nothing where the viewer may not.

interface RowActionProps {
  label: string;
  /** What the button does; without it the cell stays empty. */
  onClick?: () => void;
}

export function RowAction({ label, onClick }: RowActionProps) {
  return (
    <td>
      {onClick && (
        <button type="button" class="danger" onClick={onClick}>
          {label}
        </button>
      )}
    </td>
  );
}
