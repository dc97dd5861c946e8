export default function BriefEditorPage() {
  return <p>BriefEditorPage</p>;
}
