import { useStore } from '@nanostores/react'
import { ChevronDown, ChevronUp, ExternalLink, FileDown, MessageCircle, QrCode, Receipt, RefreshCcw, XCircle } from 'lucide-react'
import { lazy, useEffect, useState } from 'react'
import { type CarneParcelaView, type CarneView, canActOnParcel, renewalWords } from '../../../../modules/billing/model'
import { carnesRead } from '../../../../modules/billing/reads'
import { can, carneName, formatDate, formatReais } from '../../../../modules/core'
import { FilterControl, LazyDialog, SearchBox } from '../../components/ListScreen'
import { LoadMore } from '../../components/LoadMore'
import { PageRoot } from '../../components/PageRoot'
import { AddButton, EmptyState, ErrorPanel, PageActions } from '../../components/ui'
import { call, errorText, routeRequest } from '../../lib/api'
import { mutate } from '../../lib/mutate'
import { infiniteList } from '../../lib/list'
import { LIVE_PACE, polling } from '../../lib/query'
import { confirmAction } from '../../stores/confirm'
import { $user } from '../../stores/session'
import { toast } from '../../stores/toast'
import {
	CARNE_KEYS,
	CARNE_STATUS_OPTIONS,
	COMPANY_CONTROL,
	CarneStatusBadge,
	ClearFilters,
	ParcelStatusBadge,
	RenewalNote
} from './carne-parts'

const NewCarneDialog = lazy(() => import('./NewCarneDialog'))
const WhatsappDialog = lazy(() => import('./WhatsappDialog'))
const PixDialog = lazy(() => import('./PixDialog'))
const RenewalDialog = lazy(() => import('./RenewalDialog'))

// A parcel paid, removed or cancelled at Asaas shows without a reload (issue 34).
const carnesList = infiniteList<'GET /api/carnes', CarneView>(carnesRead, {
	rows: (data) => data.carnes,
	rowKey: (c) => c.id,
	settings: polling(LIVE_PACE.billing)
})

const companyName = (c: CarneView) => c.empresa?.razao ?? `Empresa ${c.empresa_codigo}`

/** The expanded carnê: its parcels, fetched when it opens. */
function Parcels({ carne }: { carne: CarneView }) {
	const [state, setState] = useState<{ rows?: CarneParcelaView[]; error?: unknown }>({})
	// Whoever buys their own credits is offered the purchase beside a renewal that waits for them.
	const buysCredits = can(useStore($user)?.tipo, 'credits.purchase')
	const [showingPix, setShowingPix] = useState<CarneParcelaView | null>(null)
	// Read again with each read of the live list: a parcel removed or refunded at Asaas changes no count of the card.
	const listed = useStore(carnesList.$data).data
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
	}, [carne.id, carne.status, carne.parcelas_pagas, listed])
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
		<>
			<ul className="divide-y divide-base-300 rounded-box border border-base-300" aria-label={`Parcelas do ${carneName(carne.id)}`}>
				{state.rows.map((p) => {
					// An open parcel offers what pays it: the boleto (link and digitable line) and the PIX (QR and code).
					const payable = canActOnParcel(p.status)
					return (
						<li key={p.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
							<span className="font-medium">
								Parcela {p.numero}/{carne.numero_parcelas}
							</span>
							<span className="tabular-nums">{formatReais(p.valor)}</span>
							<span className="text-base-content/70">Venc: {formatDate(p.dataVencimento)}</span>
							<ParcelStatusBadge status={p.status} where="carne" />
							{payable && (p.urlBoleto || p.pixCopiaCola) && (
								<span className="flex w-full flex-wrap gap-1">
									{p.urlBoleto && (
										<a className="btn btn-xs" href={p.urlBoleto} target="_blank" rel="noopener noreferrer">
											<ExternalLink className="size-3.5" aria-hidden="true" />
											Ver Boleto
										</a>
									)}
									{p.pixCopiaCola && (
										<button type="button" className="btn btn-xs" onClick={() => setShowingPix(p)}>
											<QrCode className="size-3.5" aria-hidden="true" />
											Ver PIX
										</button>
									)}
								</span>
							)}
							{payable && p.linhaDigitavel && (
								<span className="w-full break-all font-mono text-xs text-base-content/80">Linha digitável: {p.linhaDigitavel}</span>
							)}
							{p.renovacao && (
								<span className="flex w-full flex-wrap items-center gap-2">
									<RenewalNote parcel={p} />
									{p.aguarda_creditos && buysCredits && (
										<a className="link link-primary text-xs" href="/autocompra-creditos">
											Comprar créditos
										</a>
									)}
								</span>
							)}
						</li>
					)
				})}
			</ul>
			<LazyDialog open={showingPix?.pixCopiaCola != null}>
				{showingPix?.pixCopiaCola && (
					<PixDialog
						code={showingPix.pixCopiaCola}
						summary={
							<>
								<p className="font-medium">{companyName(carne)}</p>
								<p>
									Parcela {showingPix.numero}/{carne.numero_parcelas} · {formatReais(showingPix.valor)} · vence{' '}
									{formatDate(showingPix.dataVencimento)}
								</p>
							</>
						}
						onClose={() => setShowingPix(null)}
					/>
				)}
			</LazyDialog>
		</>
	)
}

/** The PDF in a tab named as the carnê ('Carnê nº 12'): a blob's own address would be the tab's title (issue 34, point 8). */
function showPdf(tab: Window, url: string, name: string) {
	const doc = tab.document
	doc.title = name
	doc.body.style.margin = '0'
	const frame = doc.createElement('iframe')
	frame.title = name
	frame.src = url
	frame.style.cssText = 'border:0;position:fixed;inset:0;width:100%;height:100%'
	doc.body.replaceChildren(frame)
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
		if (tab) showPdf(tab, url, carneName(carne.id))
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
	showsOwner,
	expanded,
	onToggle,
	onWhatsapp
}: {
	carne: CarneView
	/** Name the carnê's representative (to those who see several representatives' carnês). */
	showsOwner: boolean
	expanded: boolean
	onToggle: () => void
	onWhatsapp: () => void
}) {
	const active = carne.status === 'ativo'
	const [changingRenewal, setChangingRenewal] = useState(false)
	async function cancel() {
		const pagas = carne.parcelas_pagas
		const ok = await confirmAction({
			title: 'Cancelar carnê',
			message: [
				'As parcelas pendentes e vencidas serão removidas no Asaas: o cliente não poderá mais pagá-las.',
				pagas > 0
					? pagas === 1
						? 'A parcela já paga continua registrada e não é estornada.'
						: `As ${pagas} parcelas já pagas continuam registradas e não são estornadas.`
					: 'Nenhuma parcela foi paga até agora.',
				'Esta ação não pode ser desfeita.'
			].join('\n'),
			confirmLabel: 'Cancelar carnê',
			cancelLabel: 'Voltar',
			destructive: true
		})
		if (!ok) return
		await mutate(
			'DELETE /api/carnes/:id',
			{ params: { id: String(carne.id) } },
			{ success: { title: 'Carnê cancelado com sucesso!' }, errorTitle: 'Erro ao cancelar carnê', invalidate: CARNE_KEYS }
		)
	}
	return (
		<article className="rounded-box border border-base-300 bg-base-100 p-4" aria-labelledby={`carne-${carne.id}`}>
			<div className="flex flex-wrap items-start justify-between gap-2">
				<div className="min-w-0">
					<h3 id={`carne-${carne.id}`} className="break-all font-semibold">
						{carneName(carne.id)}
					</h3>
					<p className="text-sm text-base-content/70">{companyName(carne)}</p>
					{showsOwner && carne.representante && <p className="text-xs text-base-content/70">Representante: {carne.representante.nome}</p>}
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
			<p className={`mt-2 flex items-center gap-1.5 text-sm ${carne.renovar_licenca ? 'text-primary' : 'text-base-content/70'}`}>
				<RefreshCcw className="size-4 shrink-0" aria-hidden="true" />
				{renewalWords.card(carne.renovar_licenca, carne.creditos_por_parcela)}
			</p>
			{carne.status === 'criando' ? (
				<p className="mt-3 text-sm text-warning" role="status">
					O Asaas ainda não confirmou este carnê: o portal o conclui (ou o descarta, se o Asaas não o criou) em alguns minutos. Não emita
					outro para esta empresa até lá.
				</p>
			) : (
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
						<button type="button" className="btn btn-sm" onClick={() => setChangingRenewal(true)}>
							<RefreshCcw className="size-4" aria-hidden="true" />
							Renovação automática
						</button>
					)}
					{active && (
						<button type="button" className="btn btn-sm btn-error btn-soft" onClick={cancel}>
							<XCircle className="size-4" aria-hidden="true" />
							Cancelar
						</button>
					)}
				</div>
			)}
			{expanded && (
				<div className="mt-3">
					<Parcels carne={carne} />
				</div>
			)}
			<LazyDialog open={changingRenewal}>
				<RenewalDialog carne={carne} onClose={() => setChangingRenewal(false)} />
			</LazyDialog>
		</article>
	)
}

/** Carnês Asaas (3-billing-messaging §2): the cards, one expanded at a time, the create and WhatsApp dialogs. */
export default function CarnesPage() {
	const list = useStore(carnesList.$view)
	const params = useStore(carnesList.$params)
	const role = useStore($user)?.tipo
	// Whoever sees several representatives' carnês: each card names its own, and they search by it.
	const showsOwner = can(role, 'representatives.seeOthers')
	const filtered = params.search.trim() !== '' || Boolean(params.filters.status) || Boolean(params.filters.empresa)
	const [creating, setCreating] = useState(false)
	const [expanded, setExpanded] = useState<number | null>(null)
	const [sending, setSending] = useState<CarneView | null>(null)
	const carnes = list.rows
	return (
		<PageRoot>
			<PageActions>
				<div className="flex gap-2">
					<ClearFilters source={carnesList} />
					<AddButton label="Novo Carnê" onClick={() => setCreating(true)} />
				</div>
			</PageActions>
			<div className="mb-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
				<SearchBox
					source={carnesList}
					placeholder={`Buscar por empresa, CNPJ, descrição${showsOwner ? ', representante' : ''} ou número...`}
					label="Buscar carnês"
				/>
				<FilterControl
					source={carnesList}
					filter={{ key: 'status', label: 'Status', options: CARNE_STATUS_OPTIONS }}
					value={params.filters.status ?? ''}
				/>
				<FilterControl source={carnesList} filter={COMPANY_CONTROL} value={params.filters.empresa ?? ''} />
			</div>
			{list.error ? (
				<ErrorPanel title="Erro ao carregar carnês" message={errorText(list.error)} onRetry={carnesList.retry} />
			) : !carnes ? (
				<div className="space-y-3" role="status" aria-busy="true" aria-label="Carregando">
					{[0, 1, 2].map((i) => (
						<div key={i} className="skeleton h-40 w-full" />
					))}
				</div>
			) : carnes.length === 0 ? (
				filtered ? (
					<EmptyState icon={<Receipt className="size-8" />} title="Nenhum carnê encontrado" hint="Tente outra busca ou limpe os filtros." />
				) : (
					<EmptyState
						icon={<Receipt className="size-8" />}
						title="Nenhum carnê encontrado"
						action={<AddButton label="Criar Primeiro Carnê" onClick={() => setCreating(true)} small />}
					/>
				)
			) : (
				<div className="space-y-3" aria-busy={list.refreshing}>
					{carnes.map((c) => (
						<CarneCard
							key={c.id}
							carne={c}
							showsOwner={showsOwner}
							expanded={expanded === c.id}
							onToggle={() => setExpanded(expanded === c.id ? null : c.id)}
							onWhatsapp={() => setSending(c)}
						/>
					))}
					<LoadMore more={carnesList.more} noun="carnês" />
				</div>
			)}
			<LazyDialog open={creating}>
				<NewCarneDialog onClose={() => setCreating(false)} />
			</LazyDialog>
			<LazyDialog open={sending !== null}>
				{sending && (
					<WhatsappDialog
						title="Enviar carnê via WhatsApp"
						initialPhone={sending.empresa?.fone}
						summary={
							<>
								<p className="font-medium">{companyName(sending)}</p>
								<p>
									{sending.numero_parcelas}x de {formatReais(sending.valor_parcela)} · total {formatReais(sending.valor_total)}
								</p>
								<p>Primeiro vencimento: {formatDate(sending.data_primeiro_vencimento)}</p>
							</>
						}
						onClose={() => setSending(null)}
						onSend={(telefone) =>
							mutate(
								'POST /api/carnes/:id/enviar-whatsapp',
								{ params: { id: String(sending.id) }, body: { telefone } },
								{ success: { title: 'Carnê enviado via WhatsApp com sucesso!' }, errorTitle: 'Erro ao enviar carnê via WhatsApp' }
							)
						}
					/>
				)}
			</LazyDialog>
		</PageRoot>
	)
}
