//! `chuhan params`: the parameter table as CSV-like text.

/// Prints `name,default,min,max,step,group` for every tunable.
pub fn run() -> anyhow::Result<u8> {
    outln!("name,default,min,max,step,group");
    for d in chuhan_engine::params::table() {
        outln!(
            "{},{},{},{},{},{}",
            d.name,
            d.default,
            d.min,
            d.max,
            d.step,
            d.group
        );
    }
    Ok(crate::EXIT_OK)
}
