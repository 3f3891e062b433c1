import type { ReactNode } from 'react'

/**
 * A form's card headed by its title (`id` names the card for screen readers) with its controls beside the title
 * (`aside`); `className` adds to the card's own classes, `headClassName` lays out the title row.
 */
export function TitledSection({
	id,
	title,
	aside,
	className = '',
	headClassName,
	children
}: {
	id: string
	title: string
	aside?: ReactNode
	className?: string
	headClassName: string
	children: ReactNode
}) {
	return (
		<section className={`${className} rounded-box border border-base-300 bg-base-100 p-4 sm:p-6`.trim()} aria-labelledby={id}>
			<div className={headClassName}>
				<h3 id={id} className="text-lg font-semibold">
					{title}
				</h3>
				{aside}
			</div>
			{children}
		</section>
	)
}
