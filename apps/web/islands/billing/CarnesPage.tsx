import { useStore } from '@nanostores/react'
import { ChevronDown, ChevronUp, FileDown, MessageCircle, Plus, Receipt, XCircle } from 'lucide-react'
import { useEffect, useState } from 'react'
import {
	CARNE_MESSAGES,
	CHARGE_TYPES,
	CHARGE_TYPE_LABELS,
	CarneBody,
	type CarneParcelaView,
	type CarneView
} from '../../../../modules/billing/model'
import { formatDate, formatReais, isoDateInSaoPaulo, parseMoneyText } from '../../../../modules/core'
import { CompanyPicker } from '../../components/CompanyPicker'
import { LoadMore } from '../../components/LoadMore'
import { Modal, ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import { AddButton, DateInput, EmptyState, ErrorPanel, Field, MoneyInput, PageActions } from '../../components/ui'
import { call, errorText, routeRequest } from '../../lib/api'
import { type FieldErrors, useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { infiniteList } from '../../lib/list'
import { confirmAction } from '../../stores/confirm'
import { toast } from '../../stores/toast'
import { CarneStatusBadge, ParcelStatusBadge, WhatsappDialog } from './carne-parts'

const carnesList = infiniteList<'GET /api/carnes', CarneView>(
	{ route: 'GET /api/carnes', spec: {}, query: (p) => ({ page: p.page, limit: p.limit }) },
	{ rows: (data) => data.carnes, rowKey: (c) => c.id }
)
const INVALIDATE = ['/api/carnes', '/api/historico-pagamentos', '/api/admin/financial-stats']

const companyName = (c: CarneView) => c.empresa?.razao ?? `Empresa ${c.empresa_codigo}`

/** 'Novo Carnê': the spec's fields, checked with the server's schema; the first due date not before today (Brazil). */
function CarneDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
	const today = isoDateInSaoPaulo(new Date())
	const form = useZodForm({
		schema: CarneBody,
		initial: { empresa: '', valor: '', parcelas: '', vencimento: '', tipo: 'BOLETO' as (typeof CHARGE_TYPES)[number], descricao: '' },
		toInput: (v) => ({
			empresa_codigo: v.empresa,
			valor_total: v.valor.trim() === '' ? '' : (parseMoneyText(v.valor) ?? v.valor),
			numero_parcelas: v.parcelas,
			data_primeiro_vencimento: v.vencimento,
			tipo_cobranca: v.tipo,
			descricao: v.descricao
		}),
		check: (v): FieldErrors =>
			/^\d{4}-\d{2}-\d{2}$/.test(v.vencimento) && v.vencimento < today ? { data_primeiro_vencimento: CARNE_MESSAGES.pastDate } : {}
	})
	const { values, set, errors } = form
	const submit = form.submit(async (input) => {
		const body = CarneBody.parse(input)
		const created = await mutate(
			'POST /api/carnes',
			{ body },
			{
				success: { title: 'Carnê criado com sucesso!' },
				errorTitle: 'Erro ao criar carnê',
				errorFallback: 'Tente novamente',
				invalidate: INVALIDATE
			}
		)
		if (created) {
			form.setValues({ empresa: '', valor: '', parcelas: '', vencimento: '', tipo: 'BOLETO', descricao: '' })
			onClose()
		}
	})
	return (
		<Modal
			open={open}
			onClose={onClose}
			title="Novo Carnê"
			footer={
				<ModalActions onCancel={onClose} form="carne-form" pending={form.pending} label="Criar Carnê" icon={<Plus className="size-4" />} />
			}
		>
			<form id="carne-form" className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
				<div className="sm:col-span-2">
					<CompanyPicker value={values.empresa} onChange={(v) => set('empresa', v)} error={errors.empresa_codigo} />
				</div>
				<Field label="Valor Total (R$)" error={errors.valor_total}>
					<MoneyInput
						value={values.valor}
						onChange={(v) => set('valor', v)}
						placeholder="0,00"
						aria-invalid={errors.valor_total ? true : undefined}
					/>
				</Field>
				<Field label="Parcelas" error={errors.numero_parcelas} hint="De 2 a 12">
					<input
						className="input w-full"
						type="number"
						min={2}
						max={12}
						inputMode="numeric"
						value={values.parcelas}
						onChange={(e) => set('parcelas', e.target.value)}
					/>
				</Field>
				<Field label="Primeiro Vencimento" error={errors.data_primeiro_vencimento}>
					<DateInput value={values.vencimento} min={today} onChange={(v) => set('vencimento', v)} />
				</Field>
				<Field label="Tipo de Cobrança" error={errors.tipo_cobranca}>
					<select className="select w-full" value={values.tipo} onChange={(e) => set('tipo', e.target.value as typeof values.tipo)}>
						{CHARGE_TYPES.map((t) => (
							<option key={t} value={t}>
								{CHARGE_TYPE_LABELS[t]}
							</option>
						))}
					</select>
				</Field>
				<Field label="Descrição (opcional)" error={errors.descricao} className="sm:col-span-2">
					<textarea
						className="textarea w-full"
						rows={2}
						maxLength={500}
						value={values.descricao}
						onChange={(e) => set('descricao', e.target.value)}
					/>
				</Field>
			</form>
		</Modal>
	)
}

/** The expanded carnê: its parcels, fetched when it opens. */
function Parcels({ carne }: { carne: CarneView }) {
	const [state, setState] = useState<{ rows?: CarneParcelaView[]; error?: unknown }>({})
	useEffect(() => {
		let live = true
		call('GET /api/carnes/:id/parcelas', { params: { id: String(carne.id) } })
			.then((rows) => live && setState({ rows }))
			.catch((error) => {
				if (!live) return
				setState({ error })
				toast({ title: 'Erro ao buscar parcelas', description: errorText(error), variant: 'destructive' })
			})
		return () => {
			live = false
		}
	}, [carne.id, carne.status, carne.parcelas_pagas])
	if (state.error) return <p className="text-sm text-error">Erro ao buscar parcelas.</p>
	if (!state.rows)
		return (
			<div className="space-y-2" role="status" aria-busy="true" aria-label="Carregando parcelas">
				{Array.from({ length: Math.min(carne.numero_parcelas, 4) }, (_, i) => (
					<div key={i} className="skeleton h-10 w-full" />
				))}
			</div>
		)
	if (state.rows.length === 0) return <p className="text-sm text-base-content/70">Nenhuma parcela encontrada</p>
	return (
		<ul
			className="divide-y divide-base-300 rounded-box border border-base-300"
			aria-label={`Parcelas do carnê #${carne.asaas_installment_id}`}
		>
			{state.rows.map((p) => (
				<li key={p.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
					<span className="font-medium">
						Parcela {p.numero}/{carne.numero_parcelas}
					</span>
					<span className="tabular-nums">{formatReais(p.valor)}</span>
					<span className="text-base-content/70">Venc: {formatDate(p.dataVencimento)}</span>
					<ParcelStatusBadge status={p.status} where="carne" />
				</li>
			))}
		</ul>
	)
}

/** Opens the carnê's PDF in a new tab (the tab opens at the click, so no pop-up blocker stops it). */
async function openPdf(carne: CarneView) {
	const tab = window.open('', '_blank')
	try {
		const res = await fetch(routeRequest('GET /api/carnes/:id/download-completo', { params: { id: String(carne.id) } }).url, {
			credentials: 'include'
		})
		if (!res.ok) {
			const body = await res.json().catch(() => null)
			throw new Error(body?.message ?? 'Erro interno do servidor')
		}
		const url = URL.createObjectURL(await res.blob())
		if (tab) tab.location.href = url
		else window.open(url, '_blank')
		toast({ title: 'Carnê completo aberto com sucesso!', variant: 'success' })
	} catch (error) {
		tab?.close()
		toast({
			title: 'Erro ao abrir carnê completo',
			description: errorText(error, 'Erro ao obter carnê via backend'),
			variant: 'destructive'
		})
	}
}

function Amount({ label, children }: { label: string; children: React.ReactNode }) {
	return (
		<div>
			<dt className="text-xs text-base-content/70">{label}</dt>
			<dd className="font-semibold tabular-nums">{children}</dd>
		</div>
	)
}

function CarneCard({
	carne,
	expanded,
	onToggle,
	onWhatsapp
}: {
	carne: CarneView
	expanded: boolean
	onToggle: () => void
	onWhatsapp: () => void
}) {
	const active = carne.status === 'ativo'
	async function cancel() {
		const ok = await confirmAction({
			title: 'Cancelar carnê',
			message: 'Tem certeza que deseja cancelar este carnê?',
			confirmLabel: 'Cancelar carnê',
			destructive: true
		})
		if (!ok) return
		await mutate(
			'DELETE /api/carnes/:id',
			{ params: { id: String(carne.id) } },
			{ success: { title: 'Carnê cancelado com sucesso!' }, errorTitle: 'Erro ao cancelar carnê', invalidate: INVALIDATE }
		)
	}
	return (
		<article className="rounded-box border border-base-300 bg-base-100 p-4" aria-labelledby={`carne-${carne.id}`}>
			<div className="flex flex-wrap items-start justify-between gap-2">
				<div className="min-w-0">
					<h3 id={`carne-${carne.id}`} className="break-all font-semibold">
						Carnê #{carne.asaas_installment_id}
					</h3>
					<p className="text-sm text-base-content/70">{companyName(carne)}</p>
				</div>
				<CarneStatusBadge status={carne.status} />
			</div>
			<dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
				<Amount label="Valor Total">{formatReais(carne.valor_total)}</Amount>
				<Amount label="Valor Parcela">{formatReais(carne.valor_parcela)}</Amount>
				<Amount label="Parcelas">
					{carne.numero_parcelas}x <span className="text-xs font-normal text-base-content/70">({carne.parcelas_pagas} pagas)</span>
				</Amount>
				<Amount label="Primeiro Vencimento">{formatDate(carne.data_primeiro_vencimento)}</Amount>
			</dl>
			{carne.descricao && <p className="mt-2 text-sm text-base-content/80">{carne.descricao}</p>}
			<div className="mt-3 flex flex-wrap gap-2">
				<button type="button" className="btn btn-sm" aria-expanded={expanded} onClick={onToggle}>
					{expanded ? <ChevronUp className="size-4" aria-hidden="true" /> : <ChevronDown className="size-4" aria-hidden="true" />}
					{expanded ? 'Ocultar parcelas' : 'Ver parcelas'}
				</button>
				<button type="button" className="btn btn-sm" onClick={() => openPdf(carne)}>
					<FileDown className="size-4" aria-hidden="true" />
					Baixar carnê completo
				</button>
				{active && (
					<button type="button" className="btn btn-sm" onClick={onWhatsapp}>
						<MessageCircle className="size-4" aria-hidden="true" />
						Enviar WhatsApp
					</button>
				)}
				{active && (
					<button type="button" className="btn btn-sm btn-error btn-soft" onClick={cancel}>
						<XCircle className="size-4" aria-hidden="true" />
						Cancelar
					</button>
				)}
			</div>
			{expanded && (
				<div className="mt-3">
					<Parcels carne={carne} />
				</div>
			)}
		</article>
	)
}

/** Carnês Asaas (3-billing-messaging §2): the cards, one expanded at a time, the create and WhatsApp dialogs. */
export default function CarnesPage() {
	const list = useStore(carnesList.$view)
	const [creating, setCreating] = useState(false)
	const [expanded, setExpanded] = useState<number | null>(null)
	const [sending, setSending] = useState<CarneView | null>(null)
	const carnes = list.rows
	return (
		<PageRoot>
			<PageActions>
				<AddButton label="Novo Carnê" onClick={() => setCreating(true)} />
			</PageActions>
			{list.error ? (
				<ErrorPanel title="Erro ao carregar carnês" message={errorText(list.error)} onRetry={carnesList.retry} />
			) : !carnes ? (
				<div className="space-y-3" role="status" aria-busy="true" aria-label="Carregando">
					{[0, 1, 2].map((i) => (
						<div key={i} className="skeleton h-40 w-full" />
					))}
				</div>
			) : carnes.length === 0 ? (
				<EmptyState
					icon={<Receipt className="size-8" />}
					title="Nenhum carnê encontrado"
					action={<AddButton label="Criar Primeiro Carnê" onClick={() => setCreating(true)} small />}
				/>
			) : (
				<div className="space-y-3" aria-busy={list.refreshing}>
					{carnes.map((c) => (
						<CarneCard
							key={c.id}
							carne={c}
							expanded={expanded === c.id}
							onToggle={() => setExpanded(expanded === c.id ? null : c.id)}
							onWhatsapp={() => setSending(c)}
						/>
					))}
					<LoadMore more={carnesList.more} noun="carnês" />
				</div>
			)}
			<CarneDialog open={creating} onClose={() => setCreating(false)} />
			<WhatsappDialog
				open={sending !== null}
				title="Enviar carnê via WhatsApp"
				hint="Digite apenas números (com DDD), ex.: 5585999999999"
				summary={
					sending && (
						<>
							<p className="font-medium">{companyName(sending)}</p>
							<p>
								{sending.numero_parcelas}x de {formatReais(sending.valor_parcela)} · total {formatReais(sending.valor_total)}
							</p>
							<p>Primeiro vencimento: {formatDate(sending.data_primeiro_vencimento)}</p>
						</>
					)
				}
				onClose={() => setSending(null)}
				onSend={async (telefone) =>
					!!(await mutate(
						'POST /api/carnes/:id/enviar-whatsapp',
						{ params: { id: String(sending?.id) }, body: { telefone } },
						{ success: { title: 'Carnê enviado via WhatsApp com sucesso!' }, errorTitle: 'Erro ao enviar carnê via WhatsApp' }
					))
				}
			/>
		</PageRoot>
	)
}
