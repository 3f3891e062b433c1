/**
 * The Evolution stand-in's public entry (its parts are in ./standin/). As a program:
 * `bun modules/evolution/standin.ts [--port 3302] [--key …] [--instance …] [--version 2.3.6|2.1.1|2.1.0|2.0.10|1.8.6]`.
 */
import { STANDIN_VERSIONS, type StandinVersion, startEvolutionStandin } from './standin/index'

export * from './standin/index'

if (import.meta.main) {
	const arg = (name: string) => {
		const i = process.argv.indexOf(`--${name}`)
		return i > 0 ? process.argv[i + 1] : undefined
	}
	const apiKey = arg('key') ?? 'evolution-local'
	const instance = arg('instance') ?? 'k-licencas'
	const version = arg('version') ?? '2.3.6'
	if (!STANDIN_VERSIONS.includes(version as StandinVersion)) {
		console.error(`Versão desconhecida: ${version}. Use uma de: ${STANDIN_VERSIONS.join(', ')}.`)
		process.exit(1)
	}
	const standin = startEvolutionStandin({
		port: Number(arg('port') ?? 3302),
		hostname: arg('host'),
		apiKey,
		instances: [instance],
		version: version as StandinVersion
	})
	console.log(`Evolution local ${standin.version}: ${standin.url} · apikey ${apiKey} · instância ${instance} · conversa em ${standin.url}/`)
}
