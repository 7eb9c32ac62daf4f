export function executableInDist(platform?: NodeJS.Platform | 'mas'): string;
export function findElectron(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, packageDir?: string): { path: string | null; looked: string[] };
export function noRuntimeMessage(looked: readonly string[]): string;
