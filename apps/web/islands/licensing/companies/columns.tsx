import { formatCnpj, formatDate } from '../../../../../modules/core'
import { SYSTEM_CATALOGUE, type Tone, dateTone, licenceBadge } from '../../../../../modules/companies/model'
import type { Column } from '../../../components/Rows'
import { titleColumn } from '../../../components/ListScreen'
import type { Company } from '../../../stores/companies'
import { toggleMaintenance, toggleNotices, toggleSystem } from './actions'

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
	neutral: 'text-base-content/70'
}

/** The day the page counts licences from (Brazil) and the instant trust releases are measured against. */
export interface Today {
	iso: string
	now: Date
}

/** The five systems as small buttons: a click asks to block or unblock that system. */
function SystemBadges({ company }: { company: Company }) {
	return (
		<div className="flex max-w-32 flex-wrap gap-0.5 2xl:max-w-none 2xl:flex-nowrap">
			{SYSTEM_CATALOGUE.map((s) => {
				const blocked = company[s.flag] === 'S'
				return (
					<button
						key={s.flag}
						type="button"
						className={`badge badge-xs h-6 min-w-6 cursor-pointer px-1.5 ${blocked ? 'badge-error badge-outline line-through' : 'badge-success'}`}
						title={`${s.name}: ${blocked ? 'bloqueado (clique para desbloquear)' : 'ativo (clique para bloquear)'}`}
						aria-label={`${s.name} ${blocked ? 'bloqueado' : 'ativo'}: alternar`}
						onClick={() => toggleSystem(company, s)}
					>
						{s.short}
					</button>
				)
			})}
		</div>
	)
}

/** The columns of the companies list (1-core §2.8); `canMaintain` makes maintenance a switch. */
export function companyColumns(today: Today, canMaintain: boolean): Column<Company>[] {
	return [
		titleColumn<Company>({ header: 'Empresa', sort: 'razao' }, (c) => (
			<div className="min-w-48">
				<p className="font-medium">{c.razao}</p>
				<p className="font-mono text-xs text-base-content/70 2xl:hidden">{formatCnpj(c.cnpj)}</p>
				<p className="text-xs text-base-content/70">{c.representante?.nome}</p>
			</div>
		)),
		{
			key: 'cnpj',
			header: 'CNPJ',
			sort: 'cnpj',
			className: 'hidden 2xl:table-cell',
			cell: (c) => <span className="whitespace-nowrap font-mono text-xs">{formatCnpj(c.cnpj)}</span>
		},
		{
			key: 'licenca',
			header: 'Licença',
			sort: 'validade_licenca',
			cell: (c) => (
				<div className="whitespace-nowrap">
					<span className={TONE_TEXT[dateTone(c.validade_licenca, today.iso)]}>{formatDate(c.validade_licenca)}</span>
					{/* Until the Certificado column fits (2xl), the table shows the certificate under the licence. */}
					<p className={`hidden text-xs lg:block 2xl:hidden ${TONE_TEXT[dateTone(c.validade_certificado, today.iso)]}`}>
						Cert. {formatDate(c.validade_certificado)}
					</p>
				</div>
			)
		},
		{
			key: 'certificado',
			header: 'Certificado',
			sort: 'validade_certificado',
			className: 'hidden 2xl:table-cell',
			cell: (c) => (
				<span className={`whitespace-nowrap ${TONE_TEXT[dateTone(c.validade_certificado, today.iso)]}`}>
					{formatDate(c.validade_certificado)}
				</span>
			)
		},
		{
			key: 'status',
			header: 'Status',
			cell: (c) => {
				const badge = licenceBadge(c, today.iso, today.now)
				return <span className={`badge badge-sm whitespace-nowrap ${TONE_BADGE[badge.tone]}`}>{badge.label}</span>
			}
		},
		{ key: 'sistemas', header: 'Sistemas', cell: (c) => <SystemBadges company={c} /> },
		{
			key: 'terminais',
			header: 'Terminais',
			sort: 'terminal_count',
			cell: (c) => (
				<span className={`whitespace-nowrap ${c.terminal_count >= c.nterminais ? 'text-warning' : ''}`}>
					{c.terminal_count} / {c.nterminais}
				</span>
			)
		},
		{
			key: 'manutencao',
			header: 'Manutenção',
			cell: (c) =>
				canMaintain ? (
					<input
						type="checkbox"
						className="toggle toggle-sm toggle-warning"
						checked={c.manutencao === 'S'}
						onChange={() => toggleMaintenance(c)}
						aria-label={`Manutenção de ${c.razao}`}
					/>
				) : (
					<span className={`badge badge-sm ${c.manutencao === 'S' ? 'badge-warning' : 'badge-ghost'}`}>
						{c.manutencao === 'S' ? 'Sim' : 'Não'}
					</span>
				)
		},
		{
			key: 'avisos',
			header: 'Avisos',
			cell: (c) => (
				<input
					type="checkbox"
					className="toggle toggle-sm toggle-info"
					checked={c.exibir_aviso === 'S'}
					onChange={() => toggleNotices(c)}
					aria-label={`Exibir aviso de ${c.razao}`}
				/>
			)
		}
	]
}
