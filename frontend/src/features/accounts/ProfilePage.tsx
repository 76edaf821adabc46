import { AppLayout } from "@/components/AppLayout";

export default function ProfilePage() {
  return <AppLayout>{null}</AppLayout>;
}
