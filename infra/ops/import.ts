import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExportFiles } from '#lib/importers/export-files.ts';
import type { ImportSet, Tool } from '#lib/importers/import-set.ts';
import { readOpsgenie } from '#lib/importers/opsgenie/read-opsgenie.ts';
import { readPagerDuty } from '#lib/importers/pagerduty/read-pagerduty.ts';
import { type ImportReport, runImport } from '#lib/importers/run-import.ts';
import type { ApiRequest } from '#lib/importers/workspace-api.ts';

const USAGE = `usage: npm run import -- <pagerduty|opsgenie> --from <export folder> (--plan | --apply)
  [--url <service URL, default $IMS_URL or http://localhost:3000>] [--token <an ADMIN's access token, default $IMS_TOKEN>]`;

/** Invitation ids by the address earlier runs invited, kept beside the export: the API lists no pending invitations. */
const INVITED_FILE = '.imported-invitations.json';

const READERS: Record<Tool, (files: ExportFiles) => ImportSet> = { pagerduty: readPagerDuty, opsgenie: readOpsgenie };

/** The export folder's JSON files by relative path. */
export const folderFiles =
  (folder: string): ExportFiles =>
  (path) => {
    const file = join(folder, path);
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  };

/** Calls to a running service as the given bearer token. */
export const apiRequest =
  (baseUrl: string, token: string): ApiRequest =>
  async (method, path, body) => {
    const response = await fetch(`${baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

export interface ImportCommand {
  tool: Tool;
  from: string;
  apply: boolean;
}

/** `npm run import` without the process: reads the folder, imports, and records whom it invited. */
export const importFolder = async (command: ImportCommand, request: ApiRequest): Promise<ImportReport> => {
  const invitedFile = join(command.from, INVITED_FILE);
  const invited: Record<string, string> = existsSync(invitedFile) ? JSON.parse(readFileSync(invitedFile, 'utf8')) : {};
  const set = READERS[command.tool](folderFiles(command.from));
  const report = await runImport(set, request, { apply: command.apply, invited: new Map(Object.entries(invited)) });
  if (report.newlyInvited.size > 0) {
    const all = { ...invited, ...Object.fromEntries(report.newlyInvited) };
    writeFileSync(invitedFile, `${JSON.stringify(all, null, 2)}\n`);
  }
  return report;
};

const option = (args: string[], name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const [tool] = args;
  const from = option(args, '--from');
  const apply = args.includes('--apply');
  const token = option(args, '--token') ?? process.env.IMS_TOKEN;
  if ((tool !== 'pagerduty' && tool !== 'opsgenie') || !from || apply === args.includes('--plan') || !token) {
    console.error(USAGE);
    if (!token) console.error('an access token is required: --token or IMS_TOKEN');
    process.exit(2);
  }
  const url = option(args, '--url') ?? process.env.IMS_URL ?? 'http://localhost:3000';
  try {
    const report = await importFolder({ tool, from: resolve(from), apply }, apiRequest(url, token));
    console.log(report.lines.join('\n'));
  } catch (error) {
    console.error(`import stopped: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
