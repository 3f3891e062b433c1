import { Building2, Users } from 'lucide-react'
import { lazy } from 'react'
import { can, formatCnpj, maskPhone } from '../../../../modules/core'
import type { RepresentativeView } from '../../../../modules/resellers/model'
import { representativesRead } from '../../../../modules/resellers/reads'
import { ListScreen, EditorDialog, useEditor, cnpjColumn, dateColumn, titleColumn } from '../../components/ListScreen'
import { RolePage } from '../../components/PageRoot'
import { AddButton, AccessDenied, ActiveBadge, EditDeleteActions } from '../../components/ui'
import { localList } from '../../lib/list'
import { confirmThenMutate, deleteQuestion } from '../../lib/mutate'
import { REPRESENTATIVE_KEYS } from './representative-keys'
import OwnApiSettings from './OwnApiSettings'

const RepresentativeDialog = lazy(() => import('./RepresentativeDialog'))

/** The representatives of the user's scope: searched and sorted by the server, paged here. */
const representativesList = localList<'GET /api/representatives', RepresentativeView>(representativesRead, {
	rows: (data) => data,
	exportRoute: 'GET /api/representatives/export'
})

function RepresentativesList({ isAdmin }: { isAdmin: boolean }) {
	const editor = useEditor<RepresentativeView>()

	async function remove(r: RepresentativeView) {
		await confirmThenMutate(
			deleteQuestion(
				'Excluir representante',
				`Excluir o representante ${r.nome} (${formatCnpj(r.cnpj)})?\nEsta ação não pode ser desfeita.`
			),
			'DELETE /api/representatives/:id',
			{ params: { id: r.codigo } },
			{ success: { title: 'Representante excluído' }, errorTitle: 'Erro ao excluir representante', invalidate: REPRESENTATIVE_KEYS }
		)
	}

	return (
		<div className="space-y-4">
			<div className="flex justify-end">
				<AddButton label="Novo Representante" onClick={editor.create} />
			</div>
			<ListScreen
				source={representativesList}
				noun={{ one: 'representante', many: 'representantes' }}
				search={{ placeholder: 'Buscar por nome, CNPJ ou cidade...' }}
				rowKey={(r) => r.codigo}
				cardTitle={(r) => r.nome}
				empty={{ hint: 'Cadastre o primeiro representante.', icon: <Users className="size-10" /> }}
				columns={[
					titleColumn<RepresentativeView>({ header: 'Representante', sort: 'nome' }, (r) => (
						<div className="min-w-0">
							<p className="font-medium">{r.nome}</p>
							{r.email && <p className="text-xs text-base-content/70">{r.email}</p>}
						</div>
					)),
					cnpjColumn(),
					{ key: 'cidade', header: 'Cidade', sort: 'cidade', cell: (r) => (r.cidade ? `${r.cidade}${r.uf ? `/${r.uf}` : ''}` : '—') },
					{ key: 'contato', header: 'Contato', cell: (r) => (r.whatsapp || r.fone ? maskPhone(r.whatsapp ?? r.fone ?? '') : '—') },
					{ key: 'gerente', header: 'Gerente', cell: (r) => r.gerente?.nome ?? <span className="text-base-content/70">Sem gerente</span> },
					{
						key: 'empresas',
						header: 'Empresas',
						sort: 'nempresas',
						cell: (r) => (
							<span className="inline-flex items-center gap-1 tabular-nums">
								<Building2 className="size-3.5 opacity-60" aria-hidden="true" />
								{r.nempresas}
							</span>
						)
					},
					{
						key: 'asaas',
						header: 'API Asaas',
						cell: (r) => <ActiveBadge active={r.ativar_api_asaas === 'S'} labels={['Ativa', 'Inativa']} />
					},
					dateColumn<RepresentativeView>('Cadastro', (r) => r.data, 'data')
				]}
				actions={(r) => (
					<EditDeleteActions name={r.nome} onEdit={() => editor.edit(r)} onDelete={isAdmin ? () => remove(r) : undefined} withText />
				)}
			/>
			<EditorDialog editor={editor}>
				{(representative, close) => <RepresentativeDialog editing={representative} admin={isAdmin} onClose={close} />}
			</EditorDialog>
		</div>
	)
}

export default function RepresentativesPage() {
	return (
		<RolePage>
			{(role) =>
				can(role, 'representatives.manage') ? (
					<RepresentativesList isAdmin={can(role, 'representatives.delete')} />
				) : can(role, 'representatives.ownSettings') ? (
					<OwnApiSettings />
				) : (
					<AccessDenied message="Acesso negado. Apenas administradores e gerentes podem ver representantes." />
				)
			}
		</RolePage>
	)
}
