//! Python values to and from serde's JSON values: how dicts reach the facade's serde types
//! and how its results come back, field for field as `--json` prints them.
//!
//! (pythonize does this for pyo3 up to 0.29; the package pins pyo3 0.30, and these two
//! functions are all it needs.)

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyMapping, PySequence, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// A Python value as JSON: None, bools, ints, floats, text, lists and tuples, and mappings
/// with text keys; a NumPy or pandas value (anything with `tolist`) as the plain value it
/// stands for. `what` names the value in messages.
pub fn to_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.cast::<PyInt>().is_ok() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(PyValueError::new_err(format!(
            "{what} holds the integer {obj}, beyond the 64 bits netwrap reads"
        )));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let x = f.value();
        return Number::from_f64(x).map(Value::Number).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{what} holds nan or infinity: every value a spec takes is a finite number"
            ))
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        return table(d.iter(), what);
    }
    if let Ok(m) = obj.cast::<PyMapping>() {
        let items = m.items()?;
        let mut pairs = Vec::with_capacity(items.len());
        for item in items.iter() {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            pairs.push((k, v));
        }
        return table(pairs.into_iter(), what);
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        let seq = obj.cast::<PySequence>()?;
        let mut items = Vec::with_capacity(seq.len()?);
        for item in seq.try_iter()? {
            items.push(to_value(&item?, what)?);
        }
        return Ok(Value::Array(items));
    }
    if obj.hasattr("tolist")? {
        return to_value(&obj.call_method0("tolist")?, what);
    }
    Err(PyValueError::new_err(format!(
        "{what} holds {}, which is not a number, text, list or table",
        obj.get_type().name()?
    )))
}

fn table<'py>(
    items: impl Iterator<Item = (Bound<'py, PyAny>, Bound<'py, PyAny>)>,
    what: &str,
) -> PyResult<Value> {
    let mut fields = Map::new();
    for (k, v) in items {
        let Ok(key) = k.cast::<PyString>() else {
            return Err(PyValueError::new_err(format!("{what} has the key {k}: keys are text")));
        };
        let key = key.to_cow()?.into_owned();
        let value = to_value(&v, what)?;
        fields.insert(key, value);
    }
    Ok(Value::Object(fields))
}

/// A JSON value as Python: null None, numbers int or float as JSON has them (`4.0` stays a
/// float), tables dicts in their order, with interned keys (a sweep's points share them).
pub fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (k, v) in fields {
                dict.set_item(PyString::intern(py, k), to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// A serialisable value (a facade's result) as Python, through JSON.
pub fn result<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let v = serde_json::to_value(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_py(py, &v)
}
