import type { ReactNode } from 'react'

export interface TabItem<T extends string> {
	id: T
	label: string
	icon?: ReactNode
}

/**
 * The tab bar of a screen (daisyUI tabs-box), scrolling sideways on a phone instead of cutting labels; `grid`
 * lays the tabs two per row on a phone instead (the settings' sections).
 */
export function Tabs<T extends string>({
	tabs,
	value,
	onChange,
	label,
	grid = false
}: {
	tabs: TabItem<T>[]
	value: T
	onChange: (id: T) => void
	label: string
	grid?: boolean
}) {
	return (
		<div
			role="tablist"
			aria-label={label}
			className={
				grid ? 'tabs tabs-box grid w-full grid-cols-2 sm:flex sm:w-fit' : 'tabs tabs-box w-full flex-nowrap overflow-x-auto sm:w-fit'
			}
		>
			{tabs.map((t) => (
				<button
					key={t.id}
					type="button"
					role="tab"
					aria-selected={value === t.id}
					className={`tab flex-nowrap gap-2 ${grid ? 'whitespace-nowrap' : 'shrink-0'} ${value === t.id ? 'tab-active' : 'text-base-content/75'}`}
					onClick={() => onChange(t.id)}
				>
					{t.icon}
					{t.label}
				</button>
			))}
		</div>
	)
}
