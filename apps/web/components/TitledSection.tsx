import type { ReactNode } from 'react'

/**
 * A form's card headed by its title (`id` names the card for screen readers), an optional icon before the title and
 * controls beside it (`aside`); `className` adds to the card's own classes, `headClassName` lays out the title row.
 */
export function TitledSection({
	id,
	title,
	icon,
	aside,
	className = '',
	headClassName,
	children
}: {
	id: string
	title: string
	icon?: ReactNode
	aside?: ReactNode
	className?: string
	headClassName?: string
	children: ReactNode
}) {
	return (
		<section className={`${className} rounded-box border border-base-300 bg-base-100 p-4 sm:p-6`.trim()} aria-labelledby={id}>
			<div className={headClassName}>
				<h3 id={id} className={icon ? 'flex items-center gap-2 text-lg font-semibold' : 'text-lg font-semibold'}>
					{icon}
					{title}
				</h3>
				{aside}
			</div>
			{children}
		</section>
	)
}
