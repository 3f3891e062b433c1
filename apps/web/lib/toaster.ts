import { $toast, type Toast, type ToastVariant, dismissToast, showFlashedToast } from '../stores/toast'

/*
 * The one toast region (1-core §9): one toast at a time, 5 s by default, swipe right to close, F8 to focus.
 * Plain DOM on the server-rendered <ol id="toast-region"> of the Base layout: a React root on every page for this
 * alone cost the pages without an island of their own all of React (issue 15).
 */

const VARIANT_CLASS: Record<ToastVariant, string> = {
	default: 'border-base-300 bg-base-100 text-base-content',
	success: 'border-success/40 bg-base-100 text-base-content [&_.toast-bar]:bg-success',
	destructive: 'border-error bg-error text-error-content',
	warning: 'border-warning/50 bg-base-100 text-base-content [&_.toast-bar]:bg-warning',
	info: 'border-info/40 bg-base-100 text-base-content [&_.toast-bar]:bg-info'
}
const SWIPE_THRESHOLD = 50
/**
 * Over a dialog the toast goes to the top, at every size: the dialog's buttons are at its bottom (a bottom sheet on
 * phones; centred on wider screens, where a toast at the bottom right covered a large dialog's 'Salvar').
 */
const OVER_DIALOG = ['top-4']
const OVER_PAGE = ['bottom-4']

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag)
	node.className = className
	if (text !== undefined) node.textContent = text
	return node
}

function toastItem(toast: Toast): HTMLLIElement {
	const alert = toast.variant === 'destructive'
	const item = element(
		'li',
		`relative w-full touch-pan-y select-none overflow-hidden rounded-box border p-4 pr-10 shadow-lg transition-transform ${VARIANT_CLASS[toast.variant]}`
	)
	item.setAttribute('role', alert ? 'alert' : 'status')
	item.setAttribute('aria-live', alert ? 'assertive' : 'polite')
	const bar = element('span', 'toast-bar absolute inset-y-0 left-0 w-1')
	bar.setAttribute('aria-hidden', 'true')
	item.append(bar, element('p', 'font-semibold', toast.title))
	if (toast.description) item.append(element('p', 'mt-1 text-sm opacity-90', toast.description))
	const close = element('button', 'btn btn-ghost btn-xs btn-circle absolute right-2 top-2', '✕')
	close.type = 'button'
	close.setAttribute('aria-label', 'Fechar notificação')
	close.addEventListener('click', dismissToast)
	item.append(close)

	// Swipe right to close.
	let start: number | null = null
	let dragX = 0
	const drag = (x: number) => {
		dragX = x
		item.style.transform = `translateX(${x}px)`
		item.style.opacity = String(x ? 1 - x / 300 : 1)
	}
	item.addEventListener('pointerdown', (e) => {
		start = e.clientX
	})
	item.addEventListener('pointermove', (e) => {
		if (start !== null) drag(Math.max(0, e.clientX - start))
	})
	const release = () => {
		if (dragX > SWIPE_THRESHOLD) dismissToast()
		else drag(0)
		start = null
	}
	item.addEventListener('pointerup', release)
	item.addEventListener('pointercancel', release)
	return item
}

/**
 * A modal <dialog> sits in the browser's top layer, above every z-index, and makes the rest of the page inert: a
 * toast about what the dialog just did must be inside it. While a toast shows, the region follows the last open
 * modal (and comes back when it closes). Only then: watching the whole page all the time cost the list screens
 * long tasks as their rows arrived (issue 15).
 */
function modalFollower(region: HTMLElement) {
	const place = () => {
		const open = document.querySelectorAll<HTMLDialogElement>('dialog:modal')
		const modal = open.length > 0 ? open[open.length - 1] : null
		const parent = modal ?? document.body
		if (region.parentElement !== parent) parent.append(region)
		region.classList.remove(...(modal ? OVER_PAGE : OVER_DIALOG))
		region.classList.add(...(modal ? OVER_DIALOG : OVER_PAGE))
	}
	// A dialog closes either by losing `open` or by leaving the page with the component that rendered it.
	const observer = new MutationObserver(place)
	return {
		start() {
			place()
			observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] })
		},
		stop() {
			observer.disconnect()
			place()
		}
	}
}

export function startToaster() {
	const region = document.getElementById('toast-region')
	if (!region) return
	const follower = modalFollower(region)
	let timer: ReturnType<typeof setTimeout> | undefined
	$toast.subscribe((toast) => {
		clearTimeout(timer)
		if (toast) follower.start()
		else follower.stop()
		region.replaceChildren(...(toast ? [toastItem(toast)] : []))
		if (toast) timer = setTimeout(dismissToast, toast.duration)
	})
	window.addEventListener('keydown', (e) => {
		if (e.key === 'F8') {
			e.preventDefault()
			region.focus()
		}
	})
	showFlashedToast()
}
