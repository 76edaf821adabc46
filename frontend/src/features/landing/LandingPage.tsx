import { AppLayout } from "@/components/AppLayout";

export default function LandingPage() {
  return <AppLayout>{null}</AppLayout>;
}
