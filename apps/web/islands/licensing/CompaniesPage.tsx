import { useStore } from '@nanostores/react'
import { Building2, Eye, ImageUp, Megaphone, MoreHorizontal } from 'lucide-react'
import { Suspense, lazy, useState } from 'react'
import { can, isoDateInSaoPaulo } from '../../../../modules/core'
import { ListScreen } from '../../components/ListScreen'
import { PageRoot } from '../../components/PageRoot'
import type { RowSelection } from '../../components/Rows'
import { AddButton, PageActions, RowAction } from '../../components/ui'
import type { Company } from '../../stores/companies'
import { $user } from '../../stores/session'
import { startRenewal } from './companies/actions'
import { ActionsMenu } from './companies/ActionsMenu'
import { BulkBar } from './companies/BulkBar'
import { companyColumns } from './companies/columns'
import { $allMatching, $selected, NOTICE_OPTIONS, STATUS_OPTIONS, companiesList, setPageSelected, toggleSelected } from './companies/list'

// The dialogs load when first opened: their forms (and the schemas that check them) are not part of the page.
const CompanyFormDialog = lazy(() => import('./CompanyFormDialog'))
const CompanyDetailsDialog = lazy(() => import('./CompanyDialogs').then((m) => ({ default: m.CompanyDetailsDialog })))
const CompanyDatesDialog = lazy(() => import('./CompanyDialogs').then((m) => ({ default: m.CompanyDatesDialog })))
const PromoImageDialog = lazy(() => import('./CompanyDialogs').then((m) => ({ default: m.PromoImageDialog })))
const SendNoticeDialog = lazy(() => import('./CompanyDialogs').then((m) => ({ default: m.SendNoticeDialog })))
const TransferCreditsDialog = lazy(() => import('../credits/TransferCreditsDialog'))

type Dialog =
	| { kind: 'form'; company: Company | null }
	| { kind: 'details' | 'dates' | 'menu'; company: Company }
	| { kind: 'credits'; company: Company; renew: boolean }
	| { kind: 'promo' | 'notice' }

/** The row selection of the bulk actions, on the page's rows. */
function useSelection(rows: Company[] | undefined): RowSelection<Company> {
	const selected = useStore($selected)
	const all = useStore($allMatching)
	const onPage = rows?.filter((c) => all || selected.has(c.codigo)).length ?? 0
	return {
		isSelected: (c) => all || selected.has(c.codigo),
		toggle: (c) => toggleSelected(c.codigo),
		page: rows && onPage > 0 ? (onPage === rows.length ? true : 'some') : false,
		togglePage: () => setPageSelected(rows?.map((c) => c.codigo) ?? [], onPage !== rows?.length),
		label: (c) => `Selecionar ${c.razao}`
	}
}

/** Empresas (1-core §2.8): the list, its bulk actions, and the dialogs of a company. */
function Companies() {
	const user = useStore($user)
	const view = useStore(companiesList.$view)
	const [dialog, setDialog] = useState<Dialog | null>(null)
	const close = () => setDialog(null)
	const role = user?.tipo
	const canMaintain = can(role, 'companies.maintenance')
	const renews = can(role, 'credits.renew')
	const today = { iso: isoDateInSaoPaulo(new Date()), now: new Date() }
	const selection = useSelection(view.rows)

	const openCredits = (company: Company) =>
		renews
			? startRenewal(() => setDialog({ kind: 'credits', company, renew: true }))
			: setDialog({ kind: 'credits', company, renew: false })

	return (
		<div>
			<PageActions>
				{can(role, 'representatives.promo') && (
					<button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'promo' })}>
						<ImageUp className="size-4" /> Imagem promocional
					</button>
				)}
				{can(role, 'companies.sendNotices') && (
					<button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'notice' })}>
						<Megaphone className="size-4" /> Enviar aviso
					</button>
				)}
				<AddButton label="Nova Empresa" onClick={() => setDialog({ kind: 'form', company: null })} small />
			</PageActions>

			<ListScreen
				source={companiesList}
				noun={{ one: 'empresa', many: 'empresas', feminine: true }}
				search={{ placeholder: 'Buscar por razão social, CNPJ ou cidade...' }}
				filters={[
					{ key: 'status', label: 'Status', options: STATUS_OPTIONS },
					{ key: 'avisos', label: 'Avisos', options: NOTICE_OPTIONS }
				]}
				columns={companyColumns(today, canMaintain)}
				rowKey={(c) => c.codigo}
				selection={selection}
				between={<BulkBar canMaintain={canMaintain} />}
				cardTitle={(c) => (
					<>
						<p>{c.razao}</p>
						<p className="text-xs font-normal text-base-content/70">{c.representante?.nome}</p>
					</>
				)}
				actions={(c) => (
					<>
						<button
							type="button"
							className="btn btn-ghost btn-xs"
							onClick={() => setDialog({ kind: 'details', company: c })}
							aria-label={`Detalhes de ${c.razao}`}
							title="Detalhes"
						>
							<Eye className="size-4" />
						</button>
						<RowAction kind="edit" label={`Editar ${c.razao}`} onClick={() => setDialog({ kind: 'form', company: c })} size="xs" />
						<button
							type="button"
							className="btn btn-ghost btn-xs"
							onClick={() => setDialog({ kind: 'menu', company: c })}
							aria-label={`Mais ações de ${c.razao}`}
							title="Mais ações"
						>
							<MoreHorizontal className="size-4" />
						</button>
					</>
				)}
				empty={{ icon: <Building2 className="size-10" />, hint: 'Cadastre a primeira empresa.' }}
				error={{ fallback: 'Failed to fetch companies' }}
			/>

			<ActionsMenu
				company={dialog?.kind === 'menu' ? dialog.company : null}
				// The menu's dialog reports its closing after a choice has already opened the next dialog: only close itself.
				onClose={() => setDialog((d) => (d?.kind === 'menu' ? null : d))}
				today={today}
				renews={renews}
				canMaintain={canMaintain}
				choose={{
					details: (company) => setDialog({ kind: 'details', company }),
					edit: (company) => setDialog({ kind: 'form', company }),
					dates: can(role, 'companies.dates') ? (company) => setDialog({ kind: 'dates', company }) : undefined,
					credits: openCredits
				}}
			/>
			<Suspense fallback={null}>
				{dialog?.kind === 'form' && <CompanyFormDialog company={dialog.company} onClose={close} />}
				{dialog?.kind === 'details' && <CompanyDetailsDialog company={dialog.company} onClose={close} />}
				{dialog?.kind === 'dates' && <CompanyDatesDialog company={dialog.company} onClose={close} />}
				{dialog?.kind === 'credits' && <TransferCreditsDialog company={dialog.company} renew={dialog.renew} onClose={close} />}
				{dialog?.kind === 'promo' && <PromoImageDialog current={view.rows?.[0]?.promo ?? null} onClose={close} />}
				{dialog?.kind === 'notice' && <SendNoticeDialog onClose={close} />}
			</Suspense>
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
