/// The binding operator, as the original CombineEx and ReactiveSwift spell it:
/// `target <~ source` keeps `target` fed from `source`.
///
/// It is declared once here, and overloaded where each kind of target lives: a
/// `MutableProperty` or a `BindTarget` (Properties) and an `Action` (Actions). It has
/// assignment precedence, like the original's, so `target <~ a.map { $0 + 1 }` binds the whole
/// right-hand side.
infix operator <~ : AssignmentPrecedence
