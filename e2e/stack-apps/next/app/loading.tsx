// The loading boundary Stack's docs ask for (Stack's hooks suspend).
export default function Loading() {
  return <>Loading...</>;
}
