export {
	getSetting,
	getSettingsMap,
	saveSettings,
	getAutoLogoutConfig,
	isSettingKey,
	listSettings,
	maskSecret,
	getThemeSettings,
	getDisplayFormats,
	isMaskedSecret,
	lastSettingsUpdate
} from './service'
export * from './model'
export { settings } from './schema'
