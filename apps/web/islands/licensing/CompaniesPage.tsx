import { useStore } from '@nanostores/react'
import {
	Building2,
	CalendarClock,
	Coins,
	Eye,
	ImageUp,
	Lock,
	Megaphone,
	MoreHorizontal,
	Pencil,
	Plus,
	ShieldCheck,
	Trash2,
	Unlock,
	Wrench
} from 'lucide-react'
import { useState } from 'react'
import { formatCnpj, formatDate, isoDateInSaoPaulo } from '../../../../modules/core'
import {
	type CompanyPatch,
	SYSTEM_CATALOGUE,
	anySystemActive,
	canTrustRelease,
	dateTone,
	licenceBadge,
	type Tone
} from '../../../../modules/companies/model'
import { type Column, DataTable } from '../../components/DataTable'
import { Modal } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import { Pagination } from '../../components/Pagination'
import { EmptyState, ErrorPanel, PageHeader, RowAction, SearchInput } from '../../components/ui'
import { errorText } from '../../lib/api'
import { searchFromUrl, searchOnFirstPage, useSearch } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { $companies, $companyQuery, COMPANY_KEYS, type Company, type NoticeFilter, type StatusFilter } from '../../stores/companies'
import { confirmAction } from '../../stores/confirm'
import { $user } from '../../stores/session'
import { CompanyDatesDialog, CompanyDetailsDialog, PromoImageDialog, SendNoticeDialog } from './CompanyDialogs'
import TransferCreditsDialog from '../credits/TransferCreditsDialog'
import { CompanyFormDialog } from './CompanyFormDialog'

const TONE_BADGE: Record<Tone, string> = {
	success: 'badge-success',
	warning: 'badge-warning',
	error: 'badge-error',
	info: 'badge-info',
	neutral: 'badge-ghost'
}
const TONE_TEXT: Record<Tone, string> = {
	success: 'text-success',
	warning: 'text-warning',
	error: 'text-error',
	info: 'text-info',
	neutral: 'text-base-content/60'
}

const BLOCK_ALL = (value: 'S' | 'N'): CompanyPatch => Object.fromEntries(SYSTEM_CATALOGUE.map((s) => [s.flag, value]))

function Companies() {
	const user = useStore($user)
	const query = useStore($companyQuery)
	const { data, loading, error } = useStore($companies)
	const [search, setSearch] = useSearch(searchOnFirstPage($companyQuery), searchFromUrl)
	const [editing, setEditing] = useState<Company | null | undefined>(undefined)
	const [details, setDetails] = useState<Company | null>(null)
	const [dates, setDates] = useState<Company | null>(null)
	const [actionsFor, setActionsFor] = useState<Company | null>(null)
	const [promoOpen, setPromoOpen] = useState(false)
	const [noticeOpen, setNoticeOpen] = useState(false)
	const [transferTo, setTransferTo] = useState<Company | null>(null)
	const isAdmin = user?.tipo === 'administrador'
	const isRep = user?.tipo === 'representante'
	const today = isoDateInSaoPaulo(new Date())
	const now = new Date()

	const patch = (c: Company, body: CompanyPatch, success: string, errorTitle = 'Falha ao executar a ação solicitada.') =>
		mutate(
			'PATCH /api/companies/:id',
			{ params: { id: c.codigo }, body },
			{ success: { title: success, description: c.razao }, errorTitle, invalidate: COMPANY_KEYS }
		)

	async function toggleAll(c: Company) {
		const block = anySystemActive(c)
		const ok = await confirmAction({
			title: block ? 'Bloquear todos os sistemas?' : 'Desbloquear todos os sistemas?',
			message: `${c.razao}: ${block ? 'os cinco sistemas deixarão de funcionar' : 'os cinco sistemas voltarão a funcionar'}.`,
			confirmLabel: block ? 'Bloquear' : 'Desbloquear',
			destructive: block
		})
		if (ok) await patch(c, BLOCK_ALL(block ? 'S' : 'N'), block ? 'Sistemas bloqueados' : 'Sistemas desbloqueados')
	}

	async function toggleSystem(c: Company, flag: (typeof SYSTEM_CATALOGUE)[number]['flag'], name: string) {
		const block = c[flag] === 'N'
		await patch(c, { [flag]: block ? 'S' : 'N' }, block ? `${name} bloqueado` : `${name} desbloqueado`)
	}

	async function remove(c: Company) {
		const ok = await confirmAction({
			title: 'Excluir empresa?',
			message: `${c.razao} e os seus terminais serão excluídos.\nEsta ação não pode ser desfeita.`,
			confirmLabel: 'Excluir',
			destructive: true
		})
		if (ok)
			await mutate(
				'DELETE /api/companies/:id',
				{ params: { id: c.codigo } },
				{ success: { title: 'Empresa excluída', description: c.razao }, errorTitle: 'Erro ao excluir empresa', invalidate: COMPANY_KEYS }
			)
	}

	async function release(c: Company) {
		const ok = await confirmAction({
			title: 'Liberar em confiança?',
			message: `${c.razao} poderá usar os sistemas por 24 horas, mesmo com a licença vencida.`,
			confirmLabel: 'Liberar por 24h'
		})
		if (ok)
			await mutate(
				'POST /api/companies/:id/liberar-confianca',
				{ params: { id: c.codigo } },
				{
					success: { title: 'Empresa liberada', description: 'Liberada em confiança por 24 horas.' },
					errorTitle: 'Erro na liberação',
					errorFallback: 'Não foi possível liberar a empresa em confiança.',
					invalidate: COMPANY_KEYS
				}
			)
	}

	async function maintenance(c: Company) {
		const on = c.manutencao !== 'S'
		await mutate(
			'PUT /api/companies/:id/maintenance',
			{ params: { id: c.codigo }, body: { manutencao: on ? 'S' : 'N' } },
			{
				success: { title: on ? 'Manutenção ativada' : 'Manutenção desativada', description: c.razao },
				errorTitle: 'Erro ao atualizar status de manutenção',
				invalidate: COMPANY_KEYS
			}
		)
	}

	async function bulkMaintenance(on: boolean) {
		const ok = await confirmAction({
			title: on ? 'Ativar manutenção em todas as empresas?' : 'Desativar manutenção em todas as empresas?',
			message: 'A alteração vale para todas as empresas do portal.',
			confirmLabel: on ? 'Ativar para todas' : 'Desativar para todas',
			destructive: on
		})
		if (ok)
			await mutate(
				'PUT /api/companies/maintenance/bulk',
				{ body: { manutencao: on ? 'S' : 'N' } },
				{
					success: { title: on ? 'Manutenção ativada em todas' : 'Manutenção desativada em todas' },
					errorTitle: 'Erro ao atualizar status em lote',
					invalidate: COMPANY_KEYS
				}
			)
	}

	const columns: Column<Company>[] = [
		{
			header: 'Empresa',
			hideOnCard: true,
			cell: (c) => (
				<div className="min-w-48">
					<p className="font-medium">{c.razao}</p>
					<p className="font-mono text-xs text-base-content/70 2xl:hidden">{formatCnpj(c.cnpj)}</p>
					<p className="text-xs text-base-content/60">{c.representante?.nome}</p>
				</div>
			)
		},
		{
			header: 'CNPJ',
			className: 'hidden 2xl:table-cell',
			cell: (c) => <span className="whitespace-nowrap font-mono text-xs">{formatCnpj(c.cnpj)}</span>
		},
		{
			header: 'Licença',
			cell: (c) => (
				<div className="whitespace-nowrap">
					<span className={TONE_TEXT[dateTone(c.validade_licenca, today)]}>{formatDate(c.validade_licenca)}</span>
					{/* Until the Certificado column fits (2xl), the table shows the certificate under the licence. */}
					<p className={`hidden text-xs lg:block 2xl:hidden ${TONE_TEXT[dateTone(c.validade_certificado, today)]}`}>
						Cert. {formatDate(c.validade_certificado)}
					</p>
				</div>
			)
		},
		{
			header: 'Certificado',
			className: 'hidden 2xl:table-cell',
			cell: (c) => (
				<span className={`whitespace-nowrap ${TONE_TEXT[dateTone(c.validade_certificado, today)]}`}>
					{formatDate(c.validade_certificado)}
				</span>
			)
		},
		{
			header: 'Status',
			cell: (c) => {
				const badge = licenceBadge(c, today, now)
				return <span className={`badge badge-sm whitespace-nowrap ${TONE_BADGE[badge.tone]}`}>{badge.label}</span>
			}
		},
		{
			header: 'Sistemas',
			cell: (c) => (
				<div className="flex flex-wrap gap-0.5 xl:flex-nowrap">
					{SYSTEM_CATALOGUE.map((s) => (
						<button
							key={s.flag}
							type="button"
							className={`badge badge-xs h-5 cursor-pointer px-1.5 ${c[s.flag] === 'S' ? 'badge-error badge-outline line-through' : 'badge-success'}`}
							title={`${s.name}: ${c[s.flag] === 'S' ? 'bloqueado (clique para desbloquear)' : 'ativo (clique para bloquear)'}`}
							aria-label={`${s.name} ${c[s.flag] === 'S' ? 'bloqueado' : 'ativo'}: alternar`}
							onClick={() => toggleSystem(c, s.flag, s.name)}
						>
							{s.short}
						</button>
					))}
				</div>
			)
		},
		{
			header: 'Terminais',
			cell: (c) => (
				<span className={c.terminal_count >= c.nterminais ? 'text-warning' : ''}>
					{c.terminal_count} / {c.nterminais}
				</span>
			)
		},
		{
			header: 'Manutenção',
			cell: (c) =>
				isAdmin ? (
					<input
						type="checkbox"
						className="toggle toggle-sm toggle-warning"
						checked={c.manutencao === 'S'}
						onChange={() => maintenance(c)}
						aria-label={`Manutenção de ${c.razao}`}
					/>
				) : (
					<span className={`badge badge-sm ${c.manutencao === 'S' ? 'badge-warning' : 'badge-ghost'}`}>
						{c.manutencao === 'S' ? 'Sim' : 'Não'}
					</span>
				)
		},
		{
			header: 'Avisos',
			cell: (c) => (
				<input
					type="checkbox"
					className="toggle toggle-sm toggle-info"
					checked={c.exibir_aviso === 'S'}
					onChange={() =>
						patch(
							c,
							{ exibir_aviso: c.exibir_aviso === 'S' ? 'N' : 'S' },
							c.exibir_aviso === 'S' ? 'Avisos desativados' : 'Avisos ativados',
							'Erro ao atualizar aviso'
						)
					}
					aria-label={`Exibir aviso de ${c.razao}`}
				/>
			)
		}
	]

	const rowActions = (c: Company) => (
		<>
			<button
				type="button"
				className="btn btn-ghost btn-xs"
				onClick={() => setDetails(c)}
				aria-label={`Detalhes de ${c.razao}`}
				title="Detalhes"
			>
				<Eye className="size-4" />
			</button>
			<RowAction kind="edit" label={`Editar ${c.razao}`} onClick={() => setEditing(c)} size="xs" />
			<button
				type="button"
				className="btn btn-ghost btn-xs"
				onClick={() => setActionsFor(c)}
				aria-label={`Mais ações de ${c.razao}`}
				title="Mais ações"
			>
				<MoreHorizontal className="size-4" />
			</button>
		</>
	)

	const act = (fn: (c: Company) => unknown) => () => {
		const c = actionsFor
		setActionsFor(null)
		if (c) fn(c)
	}

	return (
		<div>
			<PageHeader title="Empresas" subtitle="Licenças, sistemas e terminais das empresas clientes.">
				<div className="flex flex-wrap gap-2">
					{isRep && (
						<>
							<button type="button" className="btn btn-sm" onClick={() => setPromoOpen(true)}>
								<ImageUp className="size-4" /> Imagem promocional
							</button>
							<button type="button" className="btn btn-sm" onClick={() => setNoticeOpen(true)}>
								<Megaphone className="size-4" /> Enviar aviso
							</button>
						</>
					)}
					{isAdmin && (
						<>
							<button type="button" className="btn btn-sm" onClick={() => bulkMaintenance(true)}>
								<Wrench className="size-4" /> Manutenção em todas
							</button>
							<button type="button" className="btn btn-sm" onClick={() => bulkMaintenance(false)}>
								Encerrar manutenção
							</button>
						</>
					)}
					<button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing(null)}>
						<Plus className="size-4" /> Nova Empresa
					</button>
				</div>
			</PageHeader>

			<div className="mb-4 flex flex-col gap-2 sm:flex-row sm:items-center">
				<SearchInput value={search} onChange={setSearch} placeholder="Buscar por razão social, CNPJ ou cidade..." label="Buscar empresas" />
				<label className="flex items-center gap-2 text-sm">
					<span className="shrink-0 text-base-content/70">Status</span>
					<select
						className="select select-sm w-full sm:w-40"
						value={query.status}
						onChange={(e) => $companyQuery.set({ ...query, status: e.target.value as StatusFilter, page: 1 })}
					>
						<option value="todas">Todas</option>
						<option value="ativas">Ativas</option>
						<option value="bloqueadas">Bloqueadas</option>
						<option value="expiradas">Expiradas</option>
					</select>
				</label>
				<label className="flex items-center gap-2 text-sm">
					<span className="shrink-0 text-base-content/70">Avisos</span>
					<select
						className="select select-sm w-full sm:w-52"
						value={query.avisos}
						onChange={(e) => $companyQuery.set({ ...query, avisos: e.target.value as NoticeFilter, page: 1 })}
					>
						<option value="todas">Todas</option>
						<option value="com">Com Avisos Ativados</option>
						<option value="sem">Sem Avisos</option>
					</select>
				</label>
			</div>

			{error ? (
				<ErrorPanel
					title="Erro ao carregar empresas"
					message={errorText(error, 'Failed to fetch companies')}
					onRetry={() => $companies.revalidate()}
				/>
			) : (
				<DataTable
					rows={data?.companies}
					columns={columns}
					rowKey={(c) => c.codigo}
					loading={loading}
					caption="Empresas"
					cardTitle={(c) => (
						<div className="flex items-start justify-between gap-2">
							<div>
								<p>{c.razao}</p>
								<p className="text-xs font-normal text-base-content/60">{c.representante?.nome}</p>
							</div>
							<Building2 className="size-5 shrink-0 text-base-content/40" aria-hidden="true" />
						</div>
					)}
					actions={rowActions}
					empty={
						<EmptyState
							icon={<Building2 className="size-10" />}
							title="Nenhuma empresa encontrada"
							hint={
								search || query.status !== 'todas' || query.avisos !== 'todas'
									? 'Tente outra busca ou limpe os filtros.'
									: 'Cadastre a primeira empresa.'
							}
						/>
					}
				/>
			)}
			<Pagination
				info={data?.pagination}
				noun="empresas"
				onPage={(page) => $companyQuery.set({ ...query, page })}
				onPageSize={(limit) => $companyQuery.set({ ...query, limit, page: 1 })}
			/>

			<Modal open={actionsFor !== null} onClose={() => setActionsFor(null)} title={actionsFor?.razao ?? ''}>
				{actionsFor && (
					<ul className="menu w-full gap-1 p-0">
						<li>
							<button type="button" onClick={act(setDetails)}>
								<Eye className="size-4" /> Detalhes
							</button>
						</li>
						<li>
							<button type="button" onClick={act(setEditing)}>
								<Pencil className="size-4" /> Editar
							</button>
						</li>
						{isAdmin && (
							<li>
								<button type="button" onClick={act(setDates)}>
									<CalendarClock className="size-4" /> Editar datas
								</button>
							</li>
						)}
						<li>
							<button type="button" onClick={act(toggleAll)}>
								{anySystemActive(actionsFor) ? <Lock className="size-4" /> : <Unlock className="size-4" />}
								{anySystemActive(actionsFor) ? 'Bloquear todos os sistemas' : 'Desbloquear todos os sistemas'}
							</button>
						</li>
						{canTrustRelease(actionsFor, today, now) && (
							<li>
								<button type="button" onClick={act(release)}>
									<ShieldCheck className="size-4" /> Liberar em confiança (24h)
								</button>
							</li>
						)}
						<li>
							<button type="button" onClick={act(setTransferTo)}>
								<Coins className="size-4" /> {isRep ? 'Renovar créditos' : 'Transferir créditos'}
							</button>
						</li>
						{isAdmin && (
							<li>
								<button type="button" onClick={act(maintenance)}>
									<Wrench className="size-4" /> {actionsFor.manutencao === 'S' ? 'Desativar manutenção' : 'Ativar manutenção'}
								</button>
							</li>
						)}
						<li>
							<button type="button" className="text-error" onClick={act(remove)}>
								<Trash2 className="size-4" /> Excluir
							</button>
						</li>
					</ul>
				)}
			</Modal>
			<CompanyFormDialog open={editing !== undefined} company={editing ?? null} onClose={() => setEditing(undefined)} />
			<CompanyDetailsDialog company={details} onClose={() => setDetails(null)} />
			<CompanyDatesDialog company={dates} onClose={() => setDates(null)} />
			<TransferCreditsDialog open={transferTo !== null} company={transferTo} onClose={() => setTransferTo(null)} />
			{isRep && <PromoImageDialog open={promoOpen} current={data?.companies[0]?.promo ?? null} onClose={() => setPromoOpen(false)} />}
			{isRep && <SendNoticeDialog open={noticeOpen} onClose={() => setNoticeOpen(false)} />}
		</div>
	)
}

export default function CompaniesPage() {
	return (
		<PageRoot>
			<Companies />
		</PageRoot>
	)
}
