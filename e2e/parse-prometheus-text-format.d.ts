// Types for parse-prometheus-text-format (the package ships none): the families of a Prometheus text exposition.
declare module "parse-prometheus-text-format" {
  type Labels = Record<string, string>;
  export type MetricFamily = {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: Array<{
      labels?: Labels;
      value?: string;
      buckets?: Record<string, string>;
      count?: string;
      sum?: string;
    }>;
  };
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
