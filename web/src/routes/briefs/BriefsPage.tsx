export default function BriefsPage() {
  return <p>BriefsPage</p>;
}
