// Sign-ups per day over the last 30 days as a bar chart, with its summary in words and the numbers as a table for
// screen readers.
import { useLocale } from "@gatehouse/react/ui";
import { useId } from "react";
import { useDashboardTranslation } from "../messages.ts";
import { TableHead } from "./bricks.tsx";

/** "2026-03-07" (a UTC day) as "Mar 7" in `locale`. */
const dayLabelIn = (locale: string, date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(locale, {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

const WIDTH = 600;
const HEIGHT = 160;

export function SignUpChart({ days }: { days: { date: string; count: number }[] }) {
  const id = useId();
  const t = useDashboardTranslation();
  const locale = useLocale();
  const dayLabel = (date: string) => dayLabelIn(locale, date);
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const max = Math.max(1, ...days.map((day) => day.count));
  const slot = WIDTH / Math.max(days.length, 1);
  const busiest = days.reduce<{ date: string; count: number } | null>(
    (best, day) => (day.count > (best?.count ?? 0) ? day : best),
    null,
  );
  const summary =
    t("chart.summary", { n: total, days: days.length }) +
    (busiest ? t("chart.busiest", { day: dayLabel(busiest.date), count: busiest.count }) : "");
  return (
    <section className="dash-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("chart.title")}</h2>
      <p className="dash-muted">{summary}.</p>
      {/* Labels are HTML beside the stretched SVG (whose text would be stretched too); the table below says all. */}
      <div className="dash-chart-frame">
        <span className="dash-chart-max" aria-hidden="true">
          {max}
        </span>
        <svg
          className="dash-chart"
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${id}-svg-title`}
          preserveAspectRatio="none"
        >
          <title id={`${id}-svg-title`}>{t("chart.bar", { summary })}</title>
          <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="dash-chart-axis" />
          {days.map((day, index) => {
            const height = (day.count / max) * (HEIGHT - 8);
            return (
              <rect
                key={day.date}
                className="dash-chart-bar"
                x={index * slot + slot * 0.15}
                y={HEIGHT - height}
                width={slot * 0.7}
                height={height}
              >
                <title>{`${dayLabel(day.date)}: ${day.count}`}</title>
              </rect>
            );
          })}
        </svg>
        {days.length > 0 && (
          <div className="dash-chart-days" aria-hidden="true">
            <span>{dayLabel(days[0]?.date ?? "")}</span>
            <span>{dayLabel(days[days.length - 1]?.date ?? "")}</span>
          </div>
        )}
      </div>
      {/* A table keeps its rows' height whatever its own: the frame around it is what hides it. */}
      <div className="dash-sr-only">
        <table>
          <caption>{t("chart.title")}</caption>
          <TableHead columns={[t("chart.day"), t("chart.signUps")]} />
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{dayLabel(day.date)}</th>
                <td>{day.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
