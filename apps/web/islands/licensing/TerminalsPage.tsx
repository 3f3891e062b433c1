import { Building2, CalendarPlus, Monitor } from 'lucide-react'
import { lazy } from 'react'
import { formatDateTime, maskMac } from '../../../../modules/core'
import type { Terminal } from '../../../../modules/terminals/model'
import { terminalsRead } from '../../../../modules/terminals/reads'
import { ListScreen, EditorDialog, useEditor, SummaryCards, titleColumn } from '../../components/ListScreen'
import { PageRoot } from '../../components/PageRoot'
import { AddButton, PageActions, EditDeleteActions, StatCard } from '../../components/ui'
import { serverList } from '../../lib/list'
import { confirmThenMutate, deleteQuestion } from '../../lib/mutate'
import { COMPANY_KEYS } from '../../stores/companies'

const TerminalDialog = lazy(() => import('./TerminalDialog'))

const terminalsList = serverList<'GET /api/terminals', Terminal>(terminalsRead, {
	rows: (data) => data.terminals,
	exportRoute: 'GET /api/terminals/export'
})

function remove(t: Terminal) {
	const name = t.nome_computador || maskMac(t.mac)
	return confirmThenMutate(
		deleteQuestion(
			'Excluir terminal?',
			`O terminal "${name}" de ${t.nome_empresa} será excluído. O computador poderá ser registrado de novo na próxima verificação de licença, se houver vaga.`
		),
		'DELETE /api/terminals/:codigo',
		{ params: { codigo: t.codigo } },
		{ success: { title: 'Terminal excluído', description: name }, errorTitle: 'Erro ao excluir terminal', invalidate: COMPANY_KEYS }
	)
}

/** Gerenciamento de Terminais (2-administration §2.2). */
function Terminals() {
	const editor = useEditor<Terminal>()
	return (
		<div>
			<PageActions>
				<AddButton label="Novo Terminal" onClick={editor.create} small />
			</PageActions>
			<SummaryCards source={terminalsList} read={(data) => data.stats} count={3} className="mb-5 grid grid-cols-3 gap-2 sm:gap-3">
				{(stats) => (
					<>
						<StatCard title="Total de terminais" value={stats.total} icon={<Monitor className="size-5" />} />
						<StatCard
							title="Empresas com terminais"
							value={`${stats.empresasComTerminais} de ${stats.totalEmpresas}`}
							icon={<Building2 className="size-5" />}
							tone="info"
						/>
						<StatCard title="Registrados hoje" value={stats.hoje} icon={<CalendarPlus className="size-5" />} tone="success" />
					</>
				)}
			</SummaryCards>
			<ListScreen
				source={terminalsList}
				noun={{ one: 'terminal', many: 'terminais' }}
				search={{ placeholder: 'Buscar terminal...', label: 'Buscar terminal' }}
				rowKey={(t) => t.codigo}
				cardTitle={(t) => t.nome_computador || maskMac(t.mac)}
				columns={[
					titleColumn<Terminal>({ header: 'Computador', sort: 'nome_computador' }, (t) => (
						<span className="font-medium">{t.nome_computador || '—'}</span>
					)),
					{
						key: 'empresa',
						header: 'Empresa',
						sort: 'empresa',
						cell: (t) => (
							<span>
								{t.nome_empresa}{' '}
								<span className="text-xs text-base-content/70">
									({t.empresa.terminal_count} / {t.empresa.nterminais})
								</span>
							</span>
						)
					},
					{ key: 'mac', header: 'Endereço MAC', sort: 'mac', cell: (t) => <span className="font-mono text-xs">{maskMac(t.mac)}</span> },
					{
						key: 'data',
						header: 'Cadastro',
						sort: 'data',
						cell: (t) => <span className="whitespace-nowrap">{formatDateTime(t.data)}</span>
					},
					{ key: 'status', header: 'Status', cell: () => <span className="badge badge-success badge-sm">Ativo</span> }
				]}
				actions={(t) => (
					<EditDeleteActions
						name={`terminal ${t.nome_computador ?? t.mac}`}
						onEdit={() => editor.edit(t)}
						onDelete={() => remove(t)}
						size="xs"
					/>
				)}
				empty={{
					icon: <Monitor className="size-10" />,
					hint: 'Os terminais aparecem aqui quando os sistemas verificam a licença, ou quando você os cadastra.'
				}}
				error={{ fallback: 'Failed to fetch terminals' }}
			/>
			<EditorDialog editor={editor}>{(terminal, close) => <TerminalDialog terminal={terminal} onClose={close} />}</EditorDialog>
		</div>
	)
}

export default function TerminalsPage() {
	return (
		<PageRoot>
			<Terminals />
		</PageRoot>
	)
}
