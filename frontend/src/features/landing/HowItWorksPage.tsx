import { AppLayout } from "@/components/AppLayout";

export default function HowItWorksPage() {
  return <AppLayout>{null}</AppLayout>;
}
