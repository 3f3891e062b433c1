/**
 * What the seeds make companies of: the demo data (db/seed.ts, which keeps the first cities, kinds and names so its
 * companies keep their names) and the benchmarks' databases (scripts/bench/seed-licensing.ts, which searches them).
 */
export const SEED_CITIES: [cidade: string, uf: string][] = [
	['Fortaleza', 'CE'],
	['Recife', 'PE'],
	['São Paulo', 'SP'],
	['Curitiba', 'PR'],
	['Belo Horizonte', 'MG'],
	['Salvador', 'BA'],
	['Manaus', 'AM'],
	['Porto Alegre', 'RS'],
	['Goiânia', 'GO'],
	['Belém', 'PA']
]
export const SEED_KINDS = [
	'Mercadinho',
	'Restaurante',
	'Padaria',
	'Ateliê',
	'Farmácia',
	'Loja',
	'Distribuidora',
	'Lanchonete',
	'Pizzaria',
	'Açougue'
]
export const SEED_NAMES = [
	'Bom Preço',
	'Sabor da Terra',
	'Pão Nosso',
	'Linha & Agulha',
	'Saúde Total',
	'Estrela',
	'Nordeste',
	'Central',
	'Aurora',
	'Boa Vista',
	'Primavera',
	'União'
]
