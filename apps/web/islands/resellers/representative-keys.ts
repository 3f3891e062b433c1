/** What a change to representatives can change elsewhere: the lists to refetch afterwards. */
export const REPRESENTATIVE_KEYS = ['/api/representatives', '/api/dashboard', '/api/reports']
