/** What a list counts, in pt-BR: its singular, its plural, and whether it is feminine ('Nenhuma empresa encontrada'). */
export interface ListNoun {
	one: string
	many: string
	feminine?: boolean
}

/** The words a list screen is said with; a page gives only those its noun does not say. */
export interface ListWording {
	noun: ListNoun
	caption?: string
	search?: { label?: string }
	empty?: { title?: string }
	error?: { title?: string }
}

/**
 * The caption ('Empresas'), the search's label ('Buscar empresas'), the empty state ('Nenhuma empresa encontrada')
 * and the error ('Erro ao carregar empresas') of a list, from its noun unless the page words them otherwise.
 */
export function listWords({ noun, caption, search, empty, error }: ListWording) {
	return {
		caption: caption ?? noun.many.charAt(0).toLocaleUpperCase('pt-BR') + noun.many.slice(1),
		searchLabel: search?.label ?? `Buscar ${noun.many}`,
		emptyTitle: empty?.title ?? (noun.feminine ? `Nenhuma ${noun.one} encontrada` : `Nenhum ${noun.one} encontrado`),
		errorTitle: error?.title ?? `Erro ao carregar ${noun.many}`
	}
}
