import { AppLayout } from "@/components/AppLayout";

export default function DashboardPage() {
  return <AppLayout>{null}</AppLayout>;
}
