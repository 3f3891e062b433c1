/** The Asaas stand-in's pages for people: every account's charges with a "pagar" button, the invoice and the boleto. */
import { formatBrDate, formatBrl } from '../../core'
import type { AsaasPayment, PaymentStatus } from '../types'
import { paymentBook } from './installments'
import { cents, type Hook, OPEN, type StandinAccount, type StandinState } from './shared'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const STATUS_LABEL: Partial<Record<PaymentStatus, string>> = {
	PENDING: 'Aguardando pagamento',
	OVERDUE: 'Vencida',
	RECEIVED: 'Recebida',
	CONFIRMED: 'Confirmada',
	RECEIVED_IN_CASH: 'Recebida em dinheiro',
	REFUNDED: 'Estornada',
	CHARGEBACK_REQUESTED: 'Chargeback solicitado'
}

function paymentRow(a: StandinAccount, p: AsaasPayment): string {
	const customer = a.customers.get(p.customer)?.name ?? p.customer
	const status = p.deleted ? 'Removida' : (STATUS_LABEL[p.status] ?? p.status)
	const pay =
		OPEN.includes(p.status) && !p.deleted
			? `<form method="post" action="/__standin/payments/${escapeHtml(p.id)}/confirm"><button>pagar</button></form>`
			: ''
	const boleto = p.bankSlipUrl ? ` <a href="${escapeHtml(new URL(p.bankSlipUrl).pathname)}">boleto</a>` : ''
	const description = escapeHtml(p.description ?? '') + (p.installmentNumber ? ` (parcela ${p.installmentNumber})` : '')
	const cells = [escapeHtml(customer), description, formatBrl(cents(p.value)), formatBrDate(p.dueDate), p.billingType, status + boleto, pay]
	return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`
}

const chargesTable = (rows: string[]) =>
	`<table><tr>${['Cliente', 'Descrição', 'Valor', 'Vencimento', 'Forma', 'Situação', ''].map((h) => `<th>${h}</th>`).join('')}</tr>${rows.join('')}</table>`

function htmlPage(title: string, sections: string[]): Response {
	const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font:15px system-ui,sans-serif;margin:1.5rem;color:#1f2937}table{border-collapse:collapse;width:100%;margin-bottom:1.5rem}
th,td{border-bottom:1px solid #e5e7eb;padding:.4rem;text-align:left}button{background:#0f766e;color:#fff;border:0;border-radius:.3rem;padding:.3rem .8rem;cursor:pointer}
.muted{color:#6b7280}</style></head><body><h1>${escapeHtml(title)}</h1>${sections.join('') || '<p class="muted">Nenhuma cobrança ainda.</p>'}</body></html>`
	return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
}

function homePage(state: StandinState): Response {
	const sections = [...state.accounts.values()]
		.filter((a) => a.payments.size > 0 || a.webhooks.size > 0)
		.map((a) => {
			const hookState = (h: Hook) =>
				(h.config.interrupted ? ' (fila interrompida)' : '') + (h.queue.length ? ` · ${h.queue.length} na fila` : '')
			const hooksLine = [...a.webhooks.values()].map((h) => escapeHtml(h.config.url) + hookState(h)).join('; ')
			const rows = [...a.payments.values()].reverse().map((p) => paymentRow(a, p))
			return `<h2>Conta …${escapeHtml(a.key.slice(-4))}</h2><p class="muted">Webhooks: ${hooksLine || 'nenhum'}</p>${chargesTable(rows)}`
		})
	return htmlPage('Asaas local (simulador): cobranças', sections)
}

/** A GET outside /v3 and /__standin/: the home page, an invoice (/i/…) or a boleto PDF (/b/pdf/…); else 404. */
export function publicPage(state: StandinState, path: string): Response {
	if (path === '/') return homePage(state)
	const invoice = /^\/i\/(\w+)$/.exec(path)
	const entry = invoice ? state.tokens.get(invoice[1]) : undefined
	if (entry) return htmlPage(`Fatura ${entry.payment.invoiceNumber}`, [chargesTable([paymentRow(entry.account, entry.payment)])])
	const slip = /^\/b\/pdf\/(\w+)$/.exec(path)
	const boleto = slip ? state.tokens.get(slip[1]) : undefined
	if (boleto) return new Response(paymentBook(boleto.account, [boleto.payment]), { headers: { 'content-type': 'application/pdf' } })
	return new Response(null, { status: 404 })
}
