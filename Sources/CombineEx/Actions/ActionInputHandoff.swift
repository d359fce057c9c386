/// An action's input on its way to the code that runs the action's work on another thread or
/// actor (a task, the main actor), for the statics whose input type need not be `Sendable`, as
/// in the original CombineEx.
struct ActionInputHandoff<Input>: @unchecked Sendable {
  // @unchecked Sendable: the input the caller gave to `apply`, read only by the run it was
  // handed to (runs of one action never overlap); sharing a mutable reference type as input
  // is the caller's choice, as when it captures one in a task.
  let input: Input
}
