// The Stack features of the outside-services group that need no outside service: e-mail delivery info and the
// capacity boost (Stack's formula over our outbox), test webhooks through our own sender, the onboarding preview,
// and moving a project to another team of its operator.
import { KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { inTransaction } from "../db/client.ts";
import type { OutsideServicesRepo } from "../db/outside-services-repo.ts";
import type { Deps } from "../deps.ts";
import type { Project } from "../services/projects.ts";
import { isTextError, TextError } from "../text-error.ts";
import { ENDPOINT_NOT_FOUND } from "../webhooks/service.ts";
import { requireTeamAdmin, UUID } from "./customers.ts";

const HOUR_MS = 60 * 60 * 1000;
/** Stack's windows; its month is SQL's `interval '1 month'`, taken here as 30 days. */
const WINDOWS = {
  hour: HOUR_MS,
  day: 24 * HOUR_MS,
  week: 7 * 24 * HOUR_MS,
  month: 30 * 24 * HOUR_MS,
} as const;
/** Stack's defaults (STACK_DEFAULT_EMAIL_CAPACITY_PER_HOUR, BOOST_MULTIPLIER, BOOST_DURATION_HOURS). */
const CAPACITY_PER_HOUR = 200;
const BOOST_MULTIPLIER = 4;
const BOOST_HOURS = 4;

/**
 * Stack's capacity rate. Gatehouse tracks no bounces or spam reports, so the penalty factor stays 1; the rate is
 * what Stack would allow, reported for its dashboard (our outbox does not throttle by it).
 */
export function capacityRate(monthSent: number, boostExpiresAt: Date | undefined, now: Date) {
  const penaltyFactor = 1;
  const hourlyBaseline = CAPACITY_PER_HOUR + (4 * monthSent) / 30 / 24;
  const ratePerHour = Math.max(hourlyBaseline * penaltyFactor, CAPACITY_PER_HOUR / 4);
  const isBoostActive = boostExpiresAt !== undefined && boostExpiresAt > now;
  const boostMultiplier = isBoostActive ? BOOST_MULTIPLIER : 1;
  return {
    rate_per_second: (ratePerHour / 3600) * boostMultiplier,
    boost_multiplier: boostMultiplier,
    penalty_factor: penaltyFactor,
    is_boost_active: isBoostActive,
  };
}

export function createOutsideServices(deps: Deps, repo: OutsideServicesRepo, clock: Clock) {
  return {
    async deliveryInfo(projectId: string) {
      const now = clock.now();
      const keys = Object.keys(WINDOWS) as (keyof typeof WINDOWS)[];
      const since = keys.map((key) => new Date(now.getTime() - WINDOWS[key]));
      const [counts, boost] = await Promise.all([
        repo.sentSince(projectId, since),
        repo.boostExpiry(projectId),
      ]);
      const stats = Object.fromEntries(
        keys.map((key, i) => [key, { sent: counts[i] ?? 0, bounced: 0, marked_as_spam: 0 }]),
      ) as Record<keyof typeof WINDOWS, { sent: number; bounced: number; marked_as_spam: number }>;
      return {
        stats,
        capacity: {
          ...capacityRate(stats.month.sent, boost, now),
          boost_expires_at: boost?.toISOString() ?? null,
        },
      };
    },

    async boostCapacity(projectId: string): Promise<{ expires_at: string }> {
      const now = clock.now();
      const result = await repo.startBoost(projectId, now, new Date(now.getTime() + BOOST_HOURS * HOUR_MS));
      if (!result.started)
        throw KnownErrors.EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE({ expires_at: result.expiresAt.toISOString() });
      return { expires_at: result.expiresAt.toISOString() };
    },

    /** Stack's answer shape: `success: false` with a reason rather than an error, so the dashboard can show it. */
    async sendTestWebhook(
      project: Project,
      endpointId: string,
    ): Promise<{ success: boolean; error_message?: string }> {
      const notFound = { success: false, error_message: "Endpoint not found. Make sure it still exists." };
      if (!UUID.test(endpointId)) return notFound;
      try {
        const attempt = await deps.webhooks.test(project, endpointId);
        if (attempt.status === "succeeded") return { success: true };
        const status = attempt.response_status_code;
        return {
          success: false,
          error_message: attempt.error ?? `The endpoint answered with status ${status}.`,
        };
      } catch (error) {
        if (isTextError(error) && error.message === ENDPOINT_NOT_FOUND) return notFound;
        throw error;
      }
    },

    /** Gatehouse does not require verified e-mails today, so turning it on would restrict every unverified user. */
    async previewAffectedUsers(
      projectId: string,
      requireEmailVerification: boolean | undefined,
      limit: number,
    ) {
      if (requireEmailVerification !== true) return { affected_users: [], total_affected_count: 0 };
      const [total, rows] = await Promise.all([
        repo.countUnverifiedUsers(projectId),
        repo.unverifiedUsers(projectId, limit),
      ]);
      return {
        affected_users: rows.map((row) => ({
          id: row.id,
          display_name: row.displayName,
          primary_email: row.primaryEmail,
          restricted_reason: { type: "email_not_verified" as const },
        })),
        total_affected_count: total,
      };
    },

    /** The operator must administer the current owner team and belong to the new one (Stack's rules). */
    async transferProject(callerProjectId: string, userId: string, projectId: string, newTeamId: string) {
      if (callerProjectId !== "internal") throw KnownErrors.EXPECTED_INTERNAL_PROJECT();
      const project = await deps.projectsRepo.find(projectId);
      if (!project) throw KnownErrors.PROJECT_NOT_FOUND({ project_id: projectId });
      if (!project.ownerTeamId) throw new TextError(400, "Project must have an owner team to be transferred");
      await requireTeamAdmin(deps, "internal", project.ownerTeamId, userId);
      const isMember = UUID.test(newTeamId) && (await deps.teamsRepo.membership(newTeamId, userId));
      if (!isMember) throw KnownErrors.TEAM_MEMBERSHIP_NOT_FOUND({ team_id: newTeamId, user_id: userId });
      await inTransaction(deps.db, (tx) => deps.projectsRepo.setOwnerTeam(tx, projectId, newTeamId));
      return { success: "true" as const };
    },
  };
}
