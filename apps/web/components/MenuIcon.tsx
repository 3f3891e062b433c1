import * as lucide from 'lucide-react'

/**
 * Menu icons by lucide name (apps/web/lib/menu.ts), rendered to static SVG by Astro: this component is
 * never hydrated, so looking icons up by name costs no client JavaScript.
 */
export default function MenuIcon({ name, className = 'size-5' }: { name: string; className?: string }) {
	const Icon = ((lucide as unknown as Record<string, lucide.LucideIcon>)[name] ?? lucide.LayoutDashboard) as lucide.LucideIcon
	return <Icon className={className} aria-hidden="true" />
}
