import { CalendarClock, Coins, Eye, Lock, Pencil, ShieldCheck, Trash2, Unlock, Wrench } from 'lucide-react'
import type { ReactNode } from 'react'
import { anySystemActive, canTrustRelease } from '../../../../../modules/companies/model'
import { Modal } from '../../../components/Modal'
import type { Company } from '../../../stores/companies'
import { removeCompany, toggleAllSystems, toggleMaintenance, trustRelease } from './actions'
import type { Today } from './columns'

export interface MenuChoices {
	details: (c: Company) => void
	edit: (c: Company) => void
	dates?: (c: Company) => void
	credits: (c: Company) => void
}

/** "Mais ações" of a company (1-core §2.8): what the row has no room for. */
export function ActionsMenu({
	company,
	onClose,
	today,
	renews,
	canMaintain,
	choose
}: {
	company: Company | null
	onClose: () => void
	today: Today
	/** A representante renews from their own credits; the others transfer from the company's representative's. */
	renews: boolean
	canMaintain: boolean
	choose: MenuChoices
}) {
	const item = (icon: ReactNode, label: string, run: (c: Company) => unknown, className?: string) => (
		<li>
			<button
				type="button"
				className={className}
				onClick={() => {
					onClose()
					if (company) run(company)
				}}
			>
				{icon} {label}
			</button>
		</li>
	)
	return (
		<Modal open={company !== null} onClose={onClose} title={company?.razao ?? ''}>
			{company && (
				<ul className="menu w-full gap-1 p-0">
					{item(<Eye className="size-4" />, 'Detalhes', choose.details)}
					{item(<Pencil className="size-4" />, 'Editar', choose.edit)}
					{choose.dates && item(<CalendarClock className="size-4" />, 'Editar datas', choose.dates)}
					{anySystemActive(company)
						? item(<Lock className="size-4" />, 'Bloquear todos os sistemas', toggleAllSystems)
						: item(<Unlock className="size-4" />, 'Desbloquear todos os sistemas', toggleAllSystems)}
					{canTrustRelease(company, today.iso, today.now) &&
						item(<ShieldCheck className="size-4" />, 'Liberar em confiança (24h)', trustRelease)}
					{item(<Coins className="size-4" />, renews ? 'Renovar créditos' : 'Transferir créditos', choose.credits)}
					{canMaintain &&
						item(
							<Wrench className="size-4" />,
							company.manutencao === 'S' ? 'Desativar manutenção' : 'Ativar manutenção',
							toggleMaintenance
						)}
					{item(<Trash2 className="size-4" />, 'Excluir', removeCompany, 'text-error')}
				</ul>
			)}
		</Modal>
	)
}
