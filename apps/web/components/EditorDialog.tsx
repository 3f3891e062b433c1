import { type ReactNode, Suspense, useState } from 'react'

/** Which row a list's create/edit dialog is open for: closed, a new row (row: null), or a row of the list. */
export interface Editor<T> {
	editing: { row: T | null } | null
	create: () => void
	edit: (row: T) => void
	close: () => void
}

export function useEditor<T>(): Editor<T> {
	const [editing, setEditing] = useState<{ row: T | null } | null>(null)
	return { editing, create: () => setEditing({ row: null }), edit: (row) => setEditing({ row }), close: () => setEditing(null) }
}

/** A dialog of the page while it is open, its code loaded (React.lazy) when first opened: nothing shows meanwhile. */
export function LazyDialog({ open, children }: { open: boolean; children: ReactNode }) {
	return open ? <Suspense fallback={null}>{children}</Suspense> : null
}

/** The list's create/edit dialog, for the row it is open for. */
export function EditorDialog<T>({ editor, children }: { editor: Editor<T>; children: (row: T | null, close: () => void) => ReactNode }) {
	return <LazyDialog open={editor.editing !== null}>{editor.editing && children(editor.editing.row, editor.close)}</LazyDialog>
}
