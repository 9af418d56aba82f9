import { operation } from "../../../route.ts";
import {
  GeneralAPISettings,
  GeneralAttachmentSettings,
  GeneralRepoSettings,
  GeneralUISettings,
} from "../../../../shapes/settings.ts";
import { apiSettings, attachmentSettings, repoSettings, uiSettings } from "../../../../services/settings.ts";

const access = { scope: "public", signIn: false } as const;

export const settingsOperations = [
  operation({
    method: "GET",
    path: "/settings/api",
    operationId: "getGeneralAPISettings",
    tag: "settings",
    summary: "Get instance's global settings for api",
    access,
    responses: { 200: GeneralAPISettings },
    handler: ({ env }) => apiSettings(env),
  }),
  operation({
    method: "GET",
    path: "/settings/attachment",
    operationId: "getGeneralAttachmentSettings",
    tag: "settings",
    summary: "Get instance's global settings for Attachment",
    access,
    responses: { 200: GeneralAttachmentSettings },
    handler: ({ env }) => attachmentSettings(env),
  }),
  operation({
    method: "GET",
    path: "/settings/repository",
    operationId: "getGeneralRepositorySettings",
    tag: "settings",
    summary: "Get instance's global settings for repositories",
    access,
    responses: { 200: GeneralRepoSettings },
    handler: ({ env }) => repoSettings(env),
  }),
  operation({
    method: "GET",
    path: "/settings/ui",
    operationId: "getGeneralUISettings",
    tag: "settings",
    summary: "Get instance's global settings for ui",
    access,
    responses: { 200: GeneralUISettings },
    handler: ({ env }) => uiSettings(env),
  }),
];
